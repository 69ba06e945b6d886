/**
 * Short names the benchmark uses for its own images. Each resolves to its `:latest` tag; every
 * other reference (a tag, a digest, a docker:// or library:// URI, a .sif path) passes unchanged.
 */
export const IMAGE_ALIASES: Readonly<Record<string, string>> = {
  'bench-env': 'bench-env:latest',
  'bench-reproducer': 'bench-reproducer:latest',
};

export function resolveImage(image: string): string {
  return Object.hasOwn(IMAGE_ALIASES, image) ? (IMAGE_ALIASES[image] as string) : image;
}
