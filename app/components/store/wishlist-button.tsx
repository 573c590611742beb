import { toggleWishlist, useWishlisted } from '~/lib/wishlist';

/** Marks the product as a favourite in this browser (no account needed). */
export function WishlistButton({ productId }: { productId: string }) {
  const favourite = useWishlisted(productId);
  return (
    <button
      type="button"
      className="btn btn-outline aria-pressed:border-red-600"
      aria-pressed={favourite}
      onClick={() => toggleWishlist(productId)}
      data-testid="wishlist-button"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="20"
        height="20"
        fill={favourite ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        className={favourite ? 'text-red-600' : 'text-icon'}
      >
        <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.2 3.4 4.5 7 4.5c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.6 0 5.5 3.7 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2Z" />
      </svg>
      {/* One name in both states: screen readers announce the state from aria-pressed. */}
      Favoritar
    </button>
  );
}
