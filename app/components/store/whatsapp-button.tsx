import { ChatIcon } from '~/components/ui/icons';
import { whatsappUrl } from '~/lib/contact';

/** The floating chat button (`enable_chat` with a WhatsApp number). */
export function WhatsappButton({ number }: { number: string }) {
  return (
    <a
      href={whatsappUrl(number)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Fale conosco pelo WhatsApp"
      className="fixed right-4 bottom-20 z-30 inline-flex h-14 w-14 items-center justify-center rounded-full bg-[#128c4b] text-white shadow-lg transition-transform hover:scale-105"
    >
      <ChatIcon className="h-7 w-7" />
    </a>
  );
}
