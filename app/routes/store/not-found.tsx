import { routeError } from '~/lib/route-errors';

// Any path the store does not know: the layout's error boundary shows the 404 page in the
// store's look, with the header and footer.
export function loader() {
  throw routeError(404);
}

// A component, even one never rendered, keeps this a page route: without it React Router would
// answer the loader's result as a bare resource.
export default function NotFound() {
  return null;
}
