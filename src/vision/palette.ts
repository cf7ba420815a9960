/** A die colour in CIE L*a*b* (L 0-100, a and b about -128..127). */
export interface Lab {
  readonly L: number;
  readonly a: number;
  readonly b: number;
}

/** sRGB 0-255 to CIE L*a*b* (D65), the same conversion OpenCV uses. */
export function rgbToLab(r: number, g: number, b: number): Lab {
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const [R, G, B] = [lin(r), lin(g), lin(b)];
  const x = (0.412453 * R + 0.35758 * G + 0.180423 * B) / 0.950456;
  const y = 0.212671 * R + 0.71516 * G + 0.072169 * B;
  const z = (0.019334 * R + 0.119193 * G + 0.950227 * B) / 1.088754;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return { L: 116 * f(y) - 16, a: 500 * (f(x) - f(y)), b: 200 * (f(y) - f(z)) };
}

/**
 * Nominal die colours: the colour of a die's face under even white light.
 * Calibration replaces these with colours measured on the user's own dice.
 */
export const DEFAULT_PALETTE: Readonly<Record<string, Lab>> = {
  white: rgbToLab(240, 240, 236),
  ivory: rgbToLab(236, 224, 188),
  red: rgbToLab(196, 28, 34),
  green: rgbToLab(34, 150, 72),
  blue: rgbToLab(30, 72, 190),
  yellow: rgbToLab(246, 206, 40),
  black: rgbToLab(30, 30, 33),
  purple: rgbToLab(112, 46, 150),
  grey: rgbToLab(134, 134, 138),
};

/**
 * Distance between two colours with lightness counting for less than hue:
 * light varies across the tray and over a die's face, hue much less.
 */
export function colourDistance(p: Lab, q: Lab, lightnessWeight: number): number {
  return Math.hypot(lightnessWeight * (p.L - q.L), p.a - q.a, p.b - q.b);
}

/** The palette entry nearest to `lab`, and how clear the choice is (0-1, from the runner-up's distance). */
export function nearestColour(
  lab: Lab,
  palette: Readonly<Record<string, Lab>>,
  lightnessWeight: number,
): { name: string; distance: number; margin: number } {
  let best = { name: 'unknown', distance: Infinity };
  let second = Infinity;
  for (const [name, ref] of Object.entries(palette)) {
    const d = colourDistance(lab, ref, lightnessWeight);
    if (d < best.distance) {
      second = best.distance;
      best = { name, distance: d };
    } else if (d < second) second = d;
  }
  const margin = second === Infinity ? 1 : (second - best.distance) / (second + best.distance);
  return { ...best, margin };
}
