/** The functional API's layers (issue 37, area E): Input, InputLayer and the merging layers. */
import { Input, InputLayer } from './input-layer';
import {
  Add,
  add,
  Average,
  average,
  Concatenate,
  concatenate,
  Dot,
  dot,
  Maximum,
  maximum,
  Minimum,
  minimum,
  Multiply,
  multiply,
  Subtract,
  subtract,
} from './merging';

export { Input, InputLayer };
export { Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract };

export const functionalLayers = {
  Input,
  InputLayer,
  Add,
  Average,
  Concatenate,
  Dot,
  Maximum,
  Minimum,
  Multiply,
  Subtract,
  add,
  average,
  concatenate,
  dot,
  maximum,
  minimum,
  multiply,
  subtract,
};
