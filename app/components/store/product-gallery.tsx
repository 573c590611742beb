import { useRef, useState, type KeyboardEvent } from 'react';

import { publicFileUrl } from '~/lib/public-files';
import { mediaSrcSet } from '~/modules/media';

const IMAGE_SIZE = 800;

/**
 * The product's images as a strip that scrolls and snaps by itself (swipe works before
 * JavaScript), with previous/next buttons, dots (thumbnails on wider screens) and arrow keys once
 * it has loaded.
 */
export function ProductGallery({ images, name }: { images: string[]; name: string }) {
  const strip = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  // Where a button or key sent the strip; positions passed on the way there are not announced.
  const heading = useRef<{ index: number; until: number } | null>(null);
  const total = images.length;

  if (total === 0) {
    return (
      <div className="flex aspect-square w-full items-center justify-center rounded-card border border-card-border bg-card text-product-description">
        Produto sem imagem
      </div>
    );
  }

  const label = (index: number) => `Imagem ${index + 1} de ${total}`;

  const show = (index: number) => {
    const target = (index + total) % total;
    const element = strip.current;
    if (!element) return;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    heading.current = { index: target, until: performance.now() + 1000 };
    element.scrollTo({
      left: target * element.clientWidth,
      behavior: reduceMotion ? 'auto' : 'smooth',
    });
    setCurrent(target);
  };

  // Follows swipes and native scrolling; only settled positions count, not the frames between.
  const onScroll = () => {
    const element = strip.current;
    if (!element || element.clientWidth === 0) return;
    const position = element.scrollLeft / element.clientWidth;
    const nearest = Math.round(position);
    if (Math.abs(position - nearest) >= 0.02) return;
    const travel = heading.current;
    if (travel && travel.index !== nearest && performance.now() < travel.until) return;
    heading.current = null;
    setCurrent(nearest);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const moves: Record<string, () => number> = {
      ArrowLeft: () => current - 1,
      ArrowRight: () => current + 1,
      Home: () => 0,
      End: () => total - 1,
    };
    const move = moves[event.key];
    if (!move || total < 2) return;
    event.preventDefault();
    show(move());
  };

  return (
    <section
      aria-roledescription="carrossel"
      aria-label={`Imagens de ${name}`}
      className="flex min-w-0 flex-col gap-3"
    >
      <div className="relative">
        {/* A scrollable strip must be reachable by keyboard; focused, it takes the arrow keys. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
        <div
          ref={strip}
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          role="group"
          aria-label={total > 1 ? 'Imagens: use as setas para trocar' : 'Imagem'}
          onScroll={onScroll}
          onKeyDown={onKeyDown}
          // The shopper took over (swipe, drag, wheel): follow them, not the last button pressed.
          onPointerDown={() => (heading.current = null)}
          onWheel={() => (heading.current = null)}
          className="flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain rounded-card border border-card-border bg-card [scrollbar-width:none] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
          data-testid="gallery-strip"
        >
          {images.map((src, index) => (
            <div
              key={`${index}-${src}`}
              role="group"
              aria-roledescription="slide"
              aria-label={label(index)}
              className="w-full shrink-0 snap-center snap-always"
            >
              <img
                src={publicFileUrl(src)}
                srcSet={mediaSrcSet(src)}
                sizes="(min-width: 1280px) 620px, (min-width: 768px) 50vw, 100vw"
                alt={index === 0 ? name : `${name} (${label(index).toLowerCase()})`}
                width={IMAGE_SIZE}
                height={IMAGE_SIZE}
                loading={index === 0 ? 'eager' : 'lazy'}
                fetchPriority={index === 0 ? 'high' : undefined}
                decoding="async"
                className="aspect-square w-full object-contain"
              />
            </div>
          ))}
        </div>
        {total > 1 ? (
          <>
            <button
              type="button"
              className="btn btn-outline absolute top-1/2 left-2 w-11 -translate-y-1/2 px-0 shadow"
              aria-label="Imagem anterior"
              onClick={() => show(current - 1)}
            >
              <span aria-hidden="true">‹</span>
            </button>
            <button
              type="button"
              className="btn btn-outline absolute top-1/2 right-2 w-11 -translate-y-1/2 px-0 shadow"
              aria-label="Próxima imagem"
              onClick={() => show(current + 1)}
            >
              <span aria-hidden="true">›</span>
            </button>
          </>
        ) : null}
      </div>
      {total > 1 ? (
        <>
          {/* Heard, not seen: the dots show the position. */}
          <p aria-live="polite" className="sr-only" data-testid="gallery-position">
            {label(current)}
          </p>
          {/* One button per image: a dot on phones, its thumbnail from 768 px. */}
          <ul
            className="flex flex-wrap justify-center gap-1 md:justify-start md:gap-2"
            aria-label="Escolher imagem"
            data-testid="gallery-dots"
          >
            {images.map((src, index) => (
              <li key={`${index}-${src}`} className="flex">
                <button
                  type="button"
                  aria-label={label(index)}
                  aria-current={index === current ? 'true' : undefined}
                  onClick={() => show(index)}
                  className="group flex h-6 min-w-6 items-center justify-center rounded-button md:block md:h-auto md:overflow-hidden md:border-2 md:border-card-border md:bg-card md:aria-current:border-primary"
                >
                  <span
                    aria-hidden="true"
                    className="block h-2.5 w-2.5 rounded-full border border-product-description transition-[width] group-aria-current:w-5 group-aria-current:border-primary group-aria-current:bg-primary md:hidden"
                  />
                  <img
                    src={publicFileUrl(src)}
                    srcSet={mediaSrcSet(src)}
                    sizes="64px"
                    alt=""
                    width={64}
                    height={64}
                    loading="lazy"
                    decoding="async"
                    className="hidden h-16 w-16 object-contain md:block"
                  />
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
