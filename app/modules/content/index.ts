export { contactChannels, type ContactChannel } from './contact';
export {
  CONTENT_PAGE_SLUGS,
  CONTENT_PAGES,
  contentPageSlug,
  type ContentPage,
  type ContentPageSlug,
  type PagePreviewReply,
} from './pages';
