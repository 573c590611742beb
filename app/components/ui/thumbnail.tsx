import { useState } from 'react';

import { publicFileUrl } from '~/lib/public-files';

/**
 * A product's picture in a list, or `fallback` when it has none or it does not load (a typo in
 * its URL). Checked on mount too: the error can come before React listens.
 */
export function Thumbnail({
  src,
  srcSet,
  size,
  alt = '',
  className,
  fallback,
}: {
  src: string | null;
  srcSet?: string;
  size: number;
  alt?: string;
  /** The box's size and look; the picture is cropped to fill it. */
  className: string;
  fallback: React.ReactNode;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) return fallback;
  return (
    <img
      ref={(image) => {
        if (image?.complete && image.naturalWidth === 0) setFailed(src);
      }}
      onError={() => setFailed(src)}
      src={publicFileUrl(src)}
      srcSet={srcSet}
      sizes={srcSet ? `${size}px` : undefined}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      className={`${className} shrink-0 object-cover`}
    />
  );
}
