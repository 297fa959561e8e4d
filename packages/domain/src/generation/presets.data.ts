/** Comic presets before their derived fields (thumbnail, previews, credit) are filled in; see presets.ts. */
export interface PresetRow {
  readonly id: string;
  readonly name: string;
  readonly modelId: string;
  readonly basePrompt: string;
  readonly tags: readonly string[];
  /** Ids from LORA_CATALOGUE, applied at their catalogue strength. */
  readonly loraIds: readonly string[];
  readonly recommended?: boolean;
}

export const PRESET_ROWS: readonly PresetRow[] = [
  {
    id: 'preset_gpt_bw',
    name: 'Manga (black and white)',
    modelId: 'gpt-image-1',
    basePrompt: 'black and white manga panel, clean ink lines, screentone shading, dramatic panel composition',
    tags: ['manga', 'black and white'],
    loraIds: [],
    recommended: true,
  },
  {
    id: 'preset_gpt_colored',
    name: 'Manga (colour)',
    modelId: 'gpt-image-1',
    basePrompt: 'full colour manga panel, cel shading, crisp line art, vivid palette',
    tags: ['manga', 'colour'],
    loraIds: [],
    recommended: true,
  },
  {
    id: 'preset_gpt_ghibli',
    name: 'Anime film',
    modelId: 'gpt-image-1',
    basePrompt:
      'hand-painted anime film still, soft watercolor backgrounds, warm pastoral light, gentle character design',
    tags: ['anime', 'painterly'],
    loraIds: [],
  },
  {
    id: 'preset_comic_schnell',
    name: 'Western comic (fast)',
    modelId: 'fluxschnell',
    basePrompt: 'american comic book panel, bold ink outlines, halftone dots, flat bright colours',
    tags: ['comic', 'fast'],
    loraIds: [],
  },
  {
    id: 'preset_manga_schnell',
    name: 'Manga (fast)',
    modelId: 'fluxschnell',
    basePrompt: 'black and white manga panel, ink lines, screentone, speed lines',
    tags: ['manga', 'fast'],
    loraIds: [],
  },
  {
    id: 'preset_manga_dev',
    name: 'Manga (detailed)',
    modelId: 'fluxdevmanga',
    basePrompt: 'detailed black and white manga panel, fine ink hatching, screentone gradients, expressive characters',
    tags: ['manga', 'detailed'],
    loraIds: [],
    recommended: true,
  },
  {
    id: 'preset_storyboard',
    name: 'Storyboard',
    modelId: 'fluxschnell',
    basePrompt: 'rough storyboard sketch, loose pencil lines, grey marker shading, clear staging',
    tags: ['storyboard', 'sketch'],
    loraIds: [],
  },
  {
    id: 'preset_a_bw',
    name: 'Anime line art',
    modelId: 'animaginexl4.0',
    basePrompt: 'monochrome, greyscale, lineart, manga',
    tags: ['anime', 'line art'],
    loraIds: ['linear-manga-sdxl'],
  },
  {
    id: 'preset_dagpt_1',
    name: 'Shoujo',
    modelId: 'gpt-image-1',
    basePrompt: 'shoujo manga panel, sparkling eyes, floral screentone backgrounds, delicate line art',
    tags: ['shoujo'],
    loraIds: [],
  },
  {
    id: 'preset_dagpt_2',
    name: 'Shounen action',
    modelId: 'gpt-image-1',
    basePrompt: 'shounen action manga panel, dynamic foreshortening, heavy speed lines, impact frames',
    tags: ['action'],
    loraIds: [],
  },
  {
    id: 'preset_dagpt_3',
    name: 'Chibi',
    modelId: 'gpt-image-1',
    basePrompt: 'chibi comedy panel, super-deformed proportions, simple pastel colours, expressive faces',
    tags: ['comedy', 'chibi'],
    loraIds: [],
  },
  {
    id: 'preset_dagpt_4',
    name: 'Noir',
    modelId: 'gpt-image-1',
    basePrompt: 'noir graphic novel panel, high contrast black ink, deep shadows, rain-soaked city',
    tags: ['noir'],
    loraIds: [],
  },
  {
    id: 'preset_dagpt_5',
    name: 'Watercolour',
    modelId: 'gpt-image-1',
    basePrompt: 'watercolour comic panel, soft washes, ink outlines, paper texture',
    tags: ['painterly'],
    loraIds: [],
  },
  {
    id: 'preset_dagpt_6',
    name: 'Retro anime',
    modelId: 'gpt-image-1',
    basePrompt: '1990s anime cel, film grain, muted retro palette, hand-drawn line art',
    tags: ['retro', 'anime'],
    loraIds: [],
  },
  {
    id: 'preset_dagpt_7',
    name: 'Webtoon',
    modelId: 'gpt-image-1',
    basePrompt: 'vertical webtoon panel, soft digital shading, clean line art, bright colours',
    tags: ['webtoon', 'colour'],
    loraIds: [],
  },
];
