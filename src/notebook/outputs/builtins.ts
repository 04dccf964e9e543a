/** Registers the renderers every notebook has: streams, errors, plain text and tables. */
import { TABLE_MIME } from '../../kernel/protocol';
import {
  ERROR_MIME,
  PLAIN_MIME,
  registerOutputRenderer,
  STDERR_MIME,
  STDOUT_MIME,
} from './registry';
import { ErrorOutput } from './renderers/ErrorOutput';
import { PlainTextOutput } from './renderers/PlainTextOutput';
import { StreamOutput } from './renderers/StreamOutput';
import { TableOutput } from './renderers/TableOutput';

registerOutputRenderer(STDOUT_MIME, StreamOutput);
registerOutputRenderer(STDERR_MIME, StreamOutput);
registerOutputRenderer(ERROR_MIME, ErrorOutput);
registerOutputRenderer(PLAIN_MIME, PlainTextOutput);
registerOutputRenderer(TABLE_MIME, TableOutput);
