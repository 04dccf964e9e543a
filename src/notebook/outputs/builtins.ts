/**
 * Registers the renderers every notebook has: streams, errors, plain text, tables, and the rich
 * outputs (charts, progress bars, images, GPU profiles).
 */
import { CHART_MIME, PROFILE_MIME, PROGRESS_MIME, TABLE_MIME } from '../../kernel/protocol';
import {
  ERROR_MIME,
  PLAIN_MIME,
  registerOutputRenderer,
  STDERR_MIME,
  STDOUT_MIME,
} from './registry';
import { ChartOutput } from './renderers/ChartOutput';
import { ErrorOutput } from './renderers/ErrorOutput';
import { ImageOutput } from './renderers/ImageOutput';
import { PlainTextOutput } from './renderers/PlainTextOutput';
import { ProfileOutput } from './renderers/ProfileOutput';
import { ProgressOutput } from './renderers/ProgressOutput';
import { StreamOutput } from './renderers/StreamOutput';
import { TableOutput } from './renderers/TableOutput';

registerOutputRenderer(STDOUT_MIME, StreamOutput);
registerOutputRenderer(STDERR_MIME, StreamOutput);
registerOutputRenderer(ERROR_MIME, ErrorOutput);
registerOutputRenderer(PLAIN_MIME, PlainTextOutput);
registerOutputRenderer(TABLE_MIME, TableOutput);
registerOutputRenderer(CHART_MIME, ChartOutput);
registerOutputRenderer(PROGRESS_MIME, ProgressOutput);
registerOutputRenderer('image/png', ImageOutput);
registerOutputRenderer(PROFILE_MIME, ProfileOutput);
