import { ConsentPreferences } from '~/components/store/consent';
import { seoContext } from '~/components/store/store-data';
import { keepDataAfter } from '~/lib/revalidation';
import { publicFileUrl } from '~/lib/public-files';
import { seoMeta } from '~/lib/seo';
import { routeError } from '~/lib/route-errors';
import { contactChannels, contentPageSlug, type ContactChannel } from '~/modules/content';
import { renderContentPage } from '~/modules/content/index.server';
import { narrowPaymentSwitches } from '~/modules/payments';

import type { Route } from './+types/content-page';

// One module serves /sobre, /politicadevolucao, /politicaprivacidade, /faq and /contato.
export async function loader({ request, context }: Route.LoaderArgs) {
  const slug = contentPageSlug(new URL(request.url).pathname);
  if (!slug) throw routeError(404);
  const settings = await context.settings.get();
  // The built-in texts name only the ways to pay that checkout takes.
  const accepts = (await context.payments())?.accepts ?? [];
  return {
    ...renderContentPage(slug, narrowPaymentSwitches(settings, accepts)),
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
          src={publicFileUrl(image)}
          alt=""
          width={1200}
          height={675}
          className="mb-8 aspect-video w-full rounded-card object-cover"
        />
      ) : null}
      <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      {slug === 'contato' ? <ContactChannels channels={channels} /> : null}
      {slug === 'politicaprivacidade' ? <ConsentPreferences /> : null}
    </article>
  );
}
