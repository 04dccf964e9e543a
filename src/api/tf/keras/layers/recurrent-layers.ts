/** The recurrent layers, Bidirectional and Masking under their Keras names (issue 37, area D). */
import { Bidirectional } from './bidirectional';
import { Masking } from './masking-layer';
import { GRU, LSTM, SimpleRNN } from './recurrent';

export { Bidirectional, GRU, LSTM, Masking, SimpleRNN };
export type { RecurrentCallOptions } from './recurrent';

export const recurrentLayers = { Bidirectional, GRU, LSTM, Masking, SimpleRNN };
