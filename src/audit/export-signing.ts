/**
 * Signed exports: the sha256 chain of an export shows a change only to whoever
 * compares it with the original, since anyone can recompute it; an Ed25519
 * signature by the exporting server cannot be recomputed without its private
 * key. The key pair is made at the first start and kept in the data directory
 * (the private key 0600); an import is taken only when its signature verifies
 * and its key is trusted: this server's own, or one the operator listed in
 * `trusted-export-keys` (one base64url public key per line, `#` comments).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { canonicalJson } from '../storage/canonical-json.js';
import { readTextIfThere, writeFileAtomic } from '../storage/atomic-file.js';
import { PRIVATE_FILE_MODE } from '../storage/file-modes.js';
import { errorText } from '../error-text.js';
import type { ExportSignature, GameExport } from './game-export.js';

/** The private key (PKCS#8 PEM, 0600) in the data directory. */
export const SIGNING_KEY_FILE = 'export-signing-key.pem';
/** Public keys of other servers whose exports the operator accepts. */
export const TRUSTED_KEYS_FILE = 'trusted-export-keys';

const KEY_TEXT = /^[A-Za-z0-9_-]{43}$/;

/** What the routes need: sign an export, say why an import's signature is not good enough. */
export interface ExportSigner {
  /** This server's public key (base64url, raw 32 bytes), shown in /api/health and each export. */
  readonly publicKey: string;
  sign(exp: GameExport): GameExport;
  /** Why the export's signature is not accepted, or null. */
  problem(exp: GameExport): string | null;
}

/** The bytes a signature covers: the export without its signature, keys sorted. */
function signedBytes(exp: GameExport): Buffer {
  const { signature: _signature, ...rest } = exp;
  return Buffer.from(canonicalJson(rest));
}

/** The export with its signature by `privateKey` (whose public half is `publicKey`). Pure but for the signing. */
export function signExport(exp: GameExport, privateKey: KeyObject, publicKey: string): GameExport {
  const value = sign(null, signedBytes(exp), privateKey).toString('base64url');
  const signature: ExportSignature = { alg: 'ed25519', publicKey, value };
  return { ...exp, signature };
}

/**
 * Why an export's signature is not accepted, or null when it verifies with
 * the key it names and that key is trusted. A change after signing (a die, an
 * event removed, the chain recomputed) fails the signature.
 */
export function signatureProblem(exp: GameExport, trusted: ReadonlySet<string>): string | null {
  const sig = exp.signature;
  if (!sig) return 'it is not signed, so where it comes from and that it is whole cannot be told';
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: sig.publicKey }, format: 'jwk' });
  } catch {
    return `its signature names ${JSON.stringify(sig.publicKey)}, which is not an Ed25519 public key`;
  }
  let good: boolean;
  try {
    good = verify(null, signedBytes(exp), key, Buffer.from(sig.value, 'base64url'));
  } catch (err) {
    return `its signature cannot be checked (${errorText(err)})`;
  }
  if (!good) return 'its signature does not verify: the export was changed after it was signed (a die, an event added or removed, its hashes recomputed)';
  if (!trusted.has(sig.publicKey)) return `it is signed by the key ${sig.publicKey}, which this server does not trust (add it to ${TRUSTED_KEYS_FILE} in the data directory to take exports from that server)`;
  return null;
}

/** The public key of a private key, as exports and /api/health show it. */
function publicKeyText(privateKey: KeyObject): string {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('the export signing key is not an Ed25519 key');
  return jwk.x;
}

/**
 * The data directory's signer: its key pair (made, 0600, when there is none)
 * and the keys it trusts. Throws naming the file when the key cannot be read
 * or a trusted key is not one.
 */
export function loadExportSigner(dataDir: string): ExportSigner {
  const keyFile = join(dataDir, SIGNING_KEY_FILE);
  let privateKey: KeyObject;
  let pem: string | null;
  try {
    pem = readTextIfThere(keyFile);
  } catch (err) {
    throw new Error(`cannot read the export signing key ${keyFile}: ${errorText(err)}`, { cause: err });
  }
  if (pem === null) {
    privateKey = generateKeyPairSync('ed25519').privateKey;
    writeFileAtomic(keyFile, Buffer.from(privateKey.export({ format: 'pem', type: 'pkcs8' }) as string), { mode: PRIVATE_FILE_MODE });
  } else {
    try {
      privateKey = createPrivateKey(pem);
    } catch (err) {
      throw new Error(`the export signing key ${keyFile} is not a private key (${errorText(err)}); move it away and a new one is made`, { cause: err });
    }
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`the export signing key ${keyFile} is ${privateKey.asymmetricKeyType}, not Ed25519; move it away and a new one is made`);
  }
  const publicKey = publicKeyText(privateKey);
  const trusted = new Set([publicKey, ...readTrustedKeys(join(dataDir, TRUSTED_KEYS_FILE))]);
  return {
    publicKey,
    sign: (exp) => signExport(exp, privateKey, publicKey),
    problem: (exp) => signatureProblem(exp, trusted),
  };
}

/** The trusted keys file's keys (none when there is no file); a line that is no key is refused, naming it. */
export function readTrustedKeys(file: string): string[] {
  let text: string | null;
  try {
    text = readTextIfThere(file);
  } catch (err) {
    throw new Error(`cannot read the trusted export keys ${file}: ${errorText(err)}`, { cause: err });
  }
  if (text === null) return [];
  return text.split('\n').flatMap((line, i) => {
    const key = line.replace(/#.*/, '').trim();
    if (key === '') return [];
    if (!KEY_TEXT.test(key)) throw new Error(`line ${i + 1} of ${file} is not a public key (43 base64url characters, as /api/health shows exportKey)`);
    return [key];
  });
}
