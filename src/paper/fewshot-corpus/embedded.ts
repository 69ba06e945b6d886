// The published few-shot corpus, embedded as text so the binary needs nothing on disk.
import iclrVisionTransformerJson from './iclr/vision_transformer.json' with { type: 'text' };
import iclrVisionTransformerTxt from './iclr/vision_transformer.txt' with { type: 'text' };
import manifestText from './manifest.json' with { type: 'text' };
import neuripsAttentionJson from './neurips/attention_is_all_you_need.json' with { type: 'text' };
import neuripsAttentionTxt from './neurips/attention_is_all_you_need.txt' with { type: 'text' };
import neuripsDiffusionJson from './neurips/denoising_diffusion.json' with { type: 'text' };
import neuripsDiffusionTxt from './neurips/denoising_diffusion.txt' with { type: 'text' };
import neuripsFewShotJson from './neurips/few_shot_learners.json' with { type: 'text' };
import neuripsFewShotTxt from './neurips/few_shot_learners.txt' with { type: 'text' };

/** manifest.json as written. */
export const CORPUS_MANIFEST_TEXT = manifestText as unknown as string;

/** Every file of the corpus, by `<rubric>/<file name>`; manifest entries name files of this map. */
export const CORPUS_FILES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'iclr/vision_transformer.json': iclrVisionTransformerJson,
    'iclr/vision_transformer.txt': iclrVisionTransformerTxt,
    'neurips/attention_is_all_you_need.json': neuripsAttentionJson,
    'neurips/attention_is_all_you_need.txt': neuripsAttentionTxt,
    'neurips/denoising_diffusion.json': neuripsDiffusionJson,
    'neurips/denoising_diffusion.txt': neuripsDiffusionTxt,
    'neurips/few_shot_learners.json': neuripsFewShotJson,
    'neurips/few_shot_learners.txt': neuripsFewShotTxt,
  }).map(([name, text]) => [name, text as unknown as string]),
);
