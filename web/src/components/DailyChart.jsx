// Daily series over the filtered range as an SVG bar chart. Long ranges are grouped so there
// are at most 120 bars; the figures come from the core (exact sums), only bar heights are
// scaled for drawing.
import { useTranslation } from 'react-i18next';

const MAX_BARS = 120;

/** `days`: [{day, …}], `value(day)`: a Number for drawing, `label(day)`: the exact text. */
export default function DailyChart({ titleKey, days, value, label }) {
  const { t } = useTranslation();
  if (!days.length) return null;
  const per = Math.ceil(days.length / MAX_BARS);
  const bars = [];
  for (let i = 0; i < days.length; i += per) {
    const group = days.slice(i, i + per);
    bars.push({ from: group[0].day, to: group.at(-1).day, value: group.reduce((s, d) => s + value(d), 0), text: group.map(label).join(' + ') });
  }
  const top = Math.max(...bars.map((b) => b.value), 1);
  const width = 100 / bars.length;
  return (
    <figure className="daily-chart">
      <figcaption>{t(titleKey)}</figcaption>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label={t(titleKey)}>
        {bars.map((b, i) => {
          const h = (b.value / top) * 38;
          return (
            <rect key={b.from} x={i * width + width * 0.1} y={40 - h} width={width * 0.8} height={h}>
              <title>{b.from === b.to ? `${b.from}: ${b.text}` : `${b.from} – ${b.to}: ${b.text}`}</title>
            </rect>
          );
        })}
      </svg>
      <div className="chart-axis" translate="no">
        <span>{bars[0].from}</span>
        <span>{bars.at(-1).to}</span>
      </div>
    </figure>
  );
}
