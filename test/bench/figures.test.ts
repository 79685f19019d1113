// The bench writes a percentage as the product does (bench/figures.ts): "2.7%", not "2.70 %".

import { describe, expect, it } from 'vitest';
import { percentFigure } from '../../bench/figures.js';

describe('percentFigure', () => {
  it('writes no space before % and drops trailing zeros, to the decimals asked', () => {
    expect(percentFigure(0.027, 2)).toBe('2.7%');
    expect(percentFigure(0.0148, 2)).toBe('1.48%');
    expect(percentFigure(0.02, 2)).toBe('2%');
    expect(percentFigure(0.4321)).toBe('43.2%');
    expect(percentFigure(0.5)).toBe('50%');
  });
});
