import { Text } from 'ink';
import { fit, OUTCOME_COLORS } from './cells.js';
import type { Outcome } from './types.js';

export function OutcomeLabel({ outcome, width = outcome.length }: { outcome: Outcome; width?: number }) {
  return <Text color={OUTCOME_COLORS[outcome]}>{fit(outcome, width)}</Text>;
}
