// Where the build puts what these tests exercise (scripts/build.sh).
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'build/native/bin/attnlab');
export const WASM_DIR = path.join(ROOT, 'build/wasm/cpp');
