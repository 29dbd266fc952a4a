/** A labelled <select> of a filter: the empty option means no filter (undefined). */
export function SelectField({ label, id, value, options, onChange }: { label: string; id: string; value: string | undefined; options: [string, string][]; onChange: (v: string | undefined) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
