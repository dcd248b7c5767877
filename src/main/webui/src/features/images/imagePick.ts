import type { ImageFilter } from '../../api/images';
import type { Image, ImageCheck, JobKind } from '../../api/types';

/** How many catalogue images the job form's picker asks for at once (the search narrows a longer list). */
export const PICK_LIMIT = 100;

/** One tag of a catalogue image, as the job form offers it: `reference:tag` and the tag's last check. */
export interface ImageChoice {
  image: Image;
  tag: string;
  /** What the Image field is filled with. */
  text: string;
  check: ImageCheck | undefined;
  /** `failed`: the last check found something other than the manifest (not-found, unauthorized, unreachable). */
  state: 'ok' | 'failed' | 'unchecked';
}

/**
 * The list request for a job of this kind and accelerator model ("" for none): the server keeps the images that
 * fit (their kinds include the kind or list none; their vendors include the model's vendor).
 */
export function pickFilter(kind: JobKind, acceleratorModel: string, q: string): ImageFilter {
  const f: ImageFilter = { kind, limit: PICK_LIMIT };
  if (acceleratorModel !== '') f.accelerator = acceleratorModel;
  if (q.trim() !== '') f.q = q.trim();
  return f;
}

/** Every tag of every image, in the catalogue's order and each image's tag order. */
export function imageChoices(images: readonly Image[]): ImageChoice[] {
  return images.flatMap((image) =>
    image.tags.map((tag) => {
      const check = image.checks.find((c) => c.tag === tag);
      const state = check === undefined ? 'unchecked' : check.result === 'ok' ? 'ok' : 'failed';
      return { image, tag, text: `${image.reference}:${tag}`, check, state } satisfies ImageChoice;
    }),
  );
}
