import t from 'tap';
import { chooseShape, energyOf } from '../../src/emotions/avatar.js';
import type { AvatarShape } from '../../src/emotions/emotions.js';

const withEnergy = (energy: number, sadness = 0.2) => ({ joy: energy, sadness, anger: 0.1, fear: 0.1, curiosity: 0.1 });

t.test('the shape rule, as a table (energy = max of joy, anger, fear, curiosity)', (t) => {
  const table: [number, AvatarShape, AvatarShape][] = [
    // energy, previous shape, expected
    [0.5, 'Circle', 'Circle'],
    [0.69, 'Circle', 'Circle'],
    [0.7, 'Circle', 'Triangle'],
    [0.95, 'Square', 'Triangle'],
    [0.65, 'Triangle', 'Triangle'], // hysteresis: stays until below 0.6
    [0.6, 'Triangle', 'Triangle'],
    [0.59, 'Triangle', 'Circle'],
    [0.26, 'Circle', 'Circle'],
    [0.25, 'Circle', 'Square'],
    [0.1, 'Triangle', 'Square'],
    [0.3, 'Square', 'Square'], // hysteresis: stays until above 0.35
    [0.35, 'Square', 'Square'],
    [0.36, 'Square', 'Circle'],
  ];
  for (const [energy, previous, expected] of table) {
    t.equal(chooseShape(withEnergy(energy), previous), expected, `energy ${energy} after ${previous}`);
  }
  t.end();
});

t.test('energy is the strongest active emotion; sadness alone is calm', (t) => {
  t.equal(energyOf({ joy: 0.1, sadness: 0.9, anger: 0.3, fear: 0.2, curiosity: 0.25 }), 0.3);
  t.equal(chooseShape({ joy: 0.05, sadness: 0.9, anger: 0.05, fear: 0.05, curiosity: 0.05 }, 'Circle'), 'Square');
  t.equal(chooseShape({ joy: 0.05, sadness: 0.1, anger: 0.8, fear: 0.05, curiosity: 0.05 }, 'Circle'), 'Triangle');
  t.end();
});

t.test('no flicker: small oscillations around a threshold keep the shape', (t) => {
  let shape: AvatarShape = 'Circle';
  const seen = new Set<AvatarShape>();
  for (const energy of [0.71, 0.69, 0.7, 0.68, 0.72, 0.66, 0.7]) {
    shape = chooseShape(withEnergy(energy), shape);
    seen.add(shape);
  }
  t.same([...seen], ['Triangle']);
  t.end();
});
