import { HeartIcon } from '~/components/ui/icons';
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
      <HeartIcon
        filled={favourite}
        className={`h-5 w-5 ${favourite ? 'text-red-600' : 'text-icon'}`}
      />
      {/* One name in both states: screen readers announce the state from aria-pressed. */}
      Favoritar
    </button>
  );
}
