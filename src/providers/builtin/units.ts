import { InputRefused } from '../errors.js';

/** Factors to each dimension's base unit (metre, kilogram, litre, metre per second, byte, second, square metre). */
const linear: Record<string, Record<string, number>> = {
  length: { mm: 0.001, cm: 0.01, m: 1, km: 1000, in: 0.0254, ft: 0.3048, yd: 0.9144, mi: 1609.344, nmi: 1852 },
  mass: { mg: 1e-6, g: 0.001, kg: 1, t: 1000, oz: 0.028349523125, lb: 0.45359237, st: 6.35029318 },
  volume: { ml: 0.001, cl: 0.01, l: 1, m3: 1000, tsp: 0.00492892159375, tbsp: 0.01478676478125, floz: 0.0295735295625, cup: 0.2365882365, pt: 0.473176473, qt: 0.946352946, gal: 3.785411784 },
  speed: { 'm/s': 1, 'km/h': 1 / 3.6, mph: 0.44704, kn: 1852 / 3600, 'ft/s': 0.3048 },
  data: { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 },
  time: { ms: 0.001, s: 1, min: 60, h: 3600, d: 86400, wk: 604800 },
  area: { mm2: 1e-6, cm2: 1e-4, m2: 1, ha: 1e4, km2: 1e6, in2: 0.00064516, ft2: 0.09290304, yd2: 0.83612736, ac: 4046.8564224, mi2: 2589988.110336 },
};

/** Temperatures are affine, so they convert through kelvin rather than by a factor. */
const temperature: Record<string, { toKelvin: (v: number) => number; fromKelvin: (k: number) => number }> = {
  C: { toKelvin: (v) => v + 273.15, fromKelvin: (k) => k - 273.15 },
  F: { toKelvin: (v) => ((v - 32) * 5) / 9 + 273.15, fromKelvin: (k) => ((k - 273.15) * 9) / 5 + 32 },
  K: { toKelvin: (v) => v, fromKelvin: (k) => k },
};

/** Every unit this converter knows, for the task's input schema and error messages. */
const knownUnits = [...Object.values(linear).flatMap((units) => Object.keys(units)), ...Object.keys(temperature)];

function dimensionOf(unit: string): string | undefined {
  if (unit in temperature) return 'temperature';
  return Object.keys(linear).find((dimension) => unit in linear[dimension]);
}

/** Rounded to 12 significant digits so binary floating-point noise (0.30000000000000004) does not show. */
function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

export function convertUnits(input: { value: number; from: string; to: string }) {
  const from = dimensionOf(input.from);
  const to = dimensionOf(input.to);
  const unknown = [['from', from], ['to', to]].filter(([, dimension]) => dimension === undefined).map(([name]) => name as string);
  if (unknown.length) {
    throw new InputRefused(`unknown unit; known units: ${knownUnits.join(', ')}`, unknown.map((name) => ({ name, reason: 'is not a known unit' })));
  }
  if (from !== to) {
    throw new InputRefused(`cannot convert ${from} to ${to}`, [{ name: 'to', reason: `must be a ${from} unit like ${input.from}` }]);
  }
  const result =
    from === 'temperature'
      ? temperature[input.to].fromKelvin(temperature[input.from].toKelvin(input.value))
      : (input.value * linear[from!][input.from]) / linear[from!][input.to];
  return { value: input.value, from: input.from, to: input.to, dimension: from, result: tidy(result) };
}
