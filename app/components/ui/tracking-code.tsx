/**
 * A parcel's tracking code: a link to its carrier's tracking page when the code names one
 * (`trackingLink` in the orders module), else the code as plain text.
 */
export function TrackingCode({
  code,
  link,
  className,
}: {
  code: string;
  link: { carrier: string; url: string } | null;
  className?: string;
}) {
  if (!link) return <span className={`font-mono break-all ${className ?? ''}`}>{code}</span>;
  return (
    <a
      href={link.url}
      target="_blank"
      rel="noopener noreferrer"
      className={`font-mono break-all underline ${className ?? ''}`}
    >
      {code}
      <span className="sr-only"> (rastrear nos {link.carrier}, abre em nova aba)</span>
    </a>
  );
}
