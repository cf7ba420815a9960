/**
 * The held-out split of a labelled photo set: half 0 and half 1, never mixed
 * between training and measuring. Photos are split by position in labels.json
 * (even, odd), except that the augmented copies of one source photo
 * (`source_image`, epanemu_train's three copies of each) stay together: the
 * sources, in the order each first appears, are split even and odd.
 */
import type { LabelledImage, LabelledSet } from './label-fixes.js';

export type Half = 0 | 1;

/** The images of `half`, in their labels.json order. */
export function imagesOfHalf<T extends LabelledImage & { readonly source_image?: string }>(images: readonly T[], half: Half): T[] {
  const sourceAt = new Map<string, number>();
  return images.filter((image, i) => {
    const source = image.source_image;
    if (source === undefined) return i % 2 === half;
    if (!sourceAt.has(source)) sourceAt.set(source, sourceAt.size);
    return (sourceAt.get(source) as number) % 2 === half;
  });
}

/** Parses a `--half` value: undefined (every image), 0 or 1; throws naming the option otherwise. */
export function parseHalf(given: string | undefined): Half | undefined {
  if (given === undefined) return undefined;
  if (given === '0' || given === '1') return Number(given) as Half;
  throw new Error(`--half takes 0 or 1, got "${given}"`);
}

export function halfOf(set: LabelledSet, half: Half | undefined): LabelledSet {
  return half === undefined ? set : { ...set, images: imagesOfHalf(set.images, half) };
}
