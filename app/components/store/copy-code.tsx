import { useId, useRef, useState } from 'react';

/**
 * The PIX "copia e cola" code: first the button that copies it and says so, then the code itself
 * (to read or select by hand).
 */
export function CopyCode({ code, className = '' }: { code: string; className?: string }) {
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [feedback, setFeedback] = useState('');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setFeedback('Código copiado!');
    } catch {
      // Without clipboard access (http, old browsers), select it for the shopper to copy.
      field.current?.select();
      setFeedback('Selecionamos o código: copie com Ctrl+C ou toque e segure.');
    }
  };

  return (
    <div className={`flex w-full flex-col gap-2 ${className}`}>
      <button type="button" className="btn btn-primary w-full" onClick={() => void copy()}>
        Copiar código PIX
      </button>
      <p role="status" className="min-h-6 text-center text-sm font-semibold">
        {feedback}
      </p>
      <label htmlFor={id} className="text-sm font-semibold">
        PIX copia e cola
      </label>
      <textarea
        id={id}
        ref={field}
        readOnly
        value={code}
        rows={3}
        data-testid="pix-code"
        className="field w-full resize-none font-mono text-xs break-all"
        onFocus={(event) => event.currentTarget.select()}
      />
    </div>
  );
}
