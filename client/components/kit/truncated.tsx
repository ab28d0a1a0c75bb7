/** Text cut to its column with an ellipsis; the whole text shows on hover. */
export function Truncated({ text, className }: { text: string; className?: string }) {
  return (
    <span className={className ?? "block max-w-48 truncate"} title={text}>
      {text}
    </span>
  );
}
