// The four raster formats every model and browser takes: the only images an upload may be (sniff.ts).
export const IMAGE_MIMES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
export type ImageMime = (typeof IMAGE_MIMES)[number];
