/**
 * Short names the benchmark uses for its own images. Each resolves to its `:latest` tag; every
 * other reference (a tag, a digest, a docker:// or library:// URI, a .sif path) passes unchanged.
 */
import { InputError } from '../core/errors.ts';
import { printable } from '../core/text.ts';

export const IMAGE_ALIASES: Readonly<Record<string, string>> = {
  'bench-env': 'bench-env:latest',
  'bench-reproducer': 'bench-reproducer:latest',
};

export function resolveImage(image: string): string {
  return Object.hasOwn(IMAGE_ALIASES, image) ? (IMAGE_ALIASES[image] as string) : image;
}

/**
 * The reference a runtime is handed: resolved, and refused when it would read as an option
 * (`--help`, `-v ...`) or carries control characters, which no reference has.
 */
export function runnableImage(image: string): string {
  const ref = resolveImage(image);
  if (ref === '' || ref.startsWith('-') || /\p{Cc}/u.test(ref)) {
    throw new InputError(`image '${printable(ref)}' is not an image reference`, 'give a name[:tag], a docker:// or library:// URI, or a .sif path');
  }
  return ref;
}
