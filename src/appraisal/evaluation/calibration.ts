/** One forecast: the predicted probability of an event and whether it happened. */
export interface Forecast {
  readonly p: number;
  readonly happened: boolean;
}

/** The forecasts whose probability falls in [from, to) (the last bin includes 1). */
export interface CalibrationBin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  /** The mean of their predicted probabilities. */
  readonly predicted: number;
  /** The share of them that happened. */
  readonly observed: number;
}

export interface Calibration {
  /** The non-empty bins, lowest first. */
  readonly bins: readonly CalibrationBin[];
  readonly count: number;
  /** Expected calibration error: |observed − predicted| of each bin, weighted by its share of the forecasts. */
  readonly ece: number;
}

/** Bins forecasts into `binCount` equal widths of probability (a reliability diagram's points). */
export function calibrationOf(forecasts: readonly Forecast[], binCount = 10): Calibration {
  const sums = Array.from({ length: binCount }, () => ({ count: 0, p: 0, happened: 0 }));
  for (const { p, happened } of forecasts) {
    if (!(p >= 0 && p <= 1)) throw new Error(`a probability must lie in 0..1, got ${p}`);
    const sum = sums[Math.min(binCount - 1, Math.floor(p * binCount))]!;
    sum.count++;
    sum.p += p;
    if (happened) sum.happened++;
  }
  const bins = sums.flatMap(({ count, p, happened }, k) =>
    count === 0 ? [] : [{ from: k / binCount, to: (k + 1) / binCount, count, predicted: p / count, observed: happened / count }],
  );
  const ece = bins.reduce((sum, bin) => sum + (bin.count / forecasts.length) * Math.abs(bin.observed - bin.predicted), 0);
  return { bins, count: forecasts.length, ece };
}
