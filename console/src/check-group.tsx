/** A fieldset of checkboxes for a filter that takes any of several values (repeated in the URL). */
export function CheckGroup({ legend, choices, checked, onChange }: { legend: string; choices: readonly string[]; checked: readonly string[] | undefined; onChange: (next: string[] | undefined) => void }) {
  const current = checked ?? [];
  const toggle = (value: string, on: boolean) => {
    const next = [...current.filter((v) => v !== value), ...(on ? [value] : [])];
    onChange(next.length === 0 ? undefined : next);
  };
  return (
    <fieldset>
      <legend>{legend}</legend>
      {choices.map((value) => (
        <label key={value} className="check">
          <input type="checkbox" checked={current.includes(value)} onChange={(e) => toggle(value, e.target.checked)} />
          {value}
        </label>
      ))}
    </fieldset>
  );
}
