/** The recurrent layers and Bidirectional under their Keras names (issue 37, area D). */
import { Bidirectional } from './bidirectional';
import { GRU, LSTM, SimpleRNN } from './recurrent';

export { Bidirectional, GRU, LSTM, SimpleRNN };
export type { RecurrentCallOptions } from './recurrent';

export const recurrentLayers = { Bidirectional, GRU, LSTM, SimpleRNN };
