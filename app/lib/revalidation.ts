import type { ShouldRevalidateFunctionArgs } from 'react-router';

/**
 * After a submission to one of these actions, keep this route's data instead of re-running its
 * loader. A cart change touches only the cart and the badge, a preference only the root's
 * choices: without this, every "add to cart" on a card would re-run the catalogue's queries.
 */
export function keepDataAfter(...actions: string[]) {
  return ({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) =>
    formAction !== undefined && actions.includes(formAction) ? false : defaultShouldRevalidate;
}
