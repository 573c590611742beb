import { data } from 'react-router';

import { keepDataAfter } from '~/lib/revalidation';
import { ConsentPreferences } from '~/components/store/consent';
import { seoMeta } from '~/lib/seo';
import { seoContext } from '~/lib/store-data';
import { contactChannels, contentPageSlug, type ContactChannel } from '~/modules/content';
import { renderContentPage } from '~/modules/content/index.server';

import type { Route } from './+types/content-page';

// One module serves /sobre, /politicadevolucao, /politicaprivacidade, /faq and /contato.
export async function loader({ request, context }: Route.LoaderArgs) {
  const slug = contentPageSlug(new URL(request.url).pathname);
  if (!slug) throw data(null, { status: 404 });
  const settings = await context.settings.get();
  return {
    ...renderContentPage(slug, settings),
    channels: slug === 'contato' ? contactChannels(settings) : [],
    image: slug === 'sobre' ? settings.about_image_url : '',
  };
}

export const shouldRevalidate = keepDataAfter('/cart', '/preferences');

export function meta({ loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [];
  return seoMeta(seoContext(matches), {
    title: loaderData.title,
    description: loaderData.description,
    path: `/${loaderData.slug}`,
  });
}

// Markdown rendered on the server arrives as HTML; these give it readable spacing and lists.
const PROSE = [
  'max-w-prose leading-relaxed wrap-break-word',
  '[&_h2]:mt-10 [&_h2]:mb-3 [&_h2]:text-xl',
  '[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-lg',
  '[&_h4]:mt-4 [&_h4]:mb-2 [&_h4]:font-semibold',
  '[&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6',
  '[&_li]:my-1 [&_strong]:font-semibold [&_a]:text-link [&_a]:underline',
  '[&_blockquote]:my-4 [&_blockquote]:border-l-4 [&_blockquote]:border-card-border [&_blockquote]:pl-4',
  '[&_hr]:my-8 [&_hr]:border-card-border [&_img]:h-auto [&_img]:max-w-full',
  '[&_code]:rounded [&_code]:bg-card [&_code]:px-1 [&_pre]:overflow-x-auto',
  '[&_details]:border-b [&_details]:border-card-border [&_details]:py-1',
  '[&_summary]:cursor-pointer [&_summary]:py-3 [&_summary]:font-semibold',
  '[&_details>p]:mt-0 [&_details>ul]:mt-0',
].join(' ');

function ChannelLink({ channel }: { channel: ContactChannel }) {
  if (!channel.href) return <address className="not-italic">{channel.value}</address>;
  const external = channel.kind === 'whatsapp';
  return (
    <a
      href={channel.href}
      className="text-link underline"
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {channel.value}
    </a>
  );
}

function ContactChannels({ channels }: { channels: ContactChannel[] }) {
  if (channels.length === 0) {
    return (
      <p className="product-card my-6 hover:transform-none">
        Em breve publicaremos aqui os nossos canais de atendimento. Obrigado pela paciência!
      </p>
    );
  }
  return (
    <section aria-labelledby="contact-channels" className="my-8">
      <h2 id="contact-channels" className="mb-4 text-xl">
        Canais de atendimento
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2">
        {channels.map((channel) => (
          <li key={channel.kind} className="product-card wrap-break-word hover:transform-none">
            <p className="mb-1 text-sm font-semibold">{channel.label}</p>
            <ChannelLink channel={channel} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { slug, title, html, channels, image } = loaderData;
  return (
    <article className="section-spacing mx-auto max-w-3xl px-4">
      <h1 className="mb-6 text-2xl md:text-3xl">{title}</h1>
      {image ? (
        // The store's photo sets the mood; the text beside it says everything it would.
        <img
          src={image}
          alt=""
          width={1200}
          height={675}
          className="mb-8 aspect-video w-full rounded-card object-cover"
        />
      ) : null}
      <div className={PROSE} dangerouslySetInnerHTML={{ __html: html }} />
      {slug === 'contato' ? <ContactChannels channels={channels} /> : null}
      {slug === 'politicaprivacidade' ? <ConsentPreferences /> : null}
    </article>
  );
}
