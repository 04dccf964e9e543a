/**
 * Registers the renderers every notebook has: streams, errors, plain text, tables, the rich
 * outputs (charts, progress bars, images, GPU profiles), and the standard types of IPython's
 * display protocol, ranked as Jupyter picks the richest: HTML > markdown > SVG > PNG > JPEG >
 * JSON > plain text (LaTeX has no renderer here: its text/plain shows).
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
import { HtmlOutput, MarkdownOutput } from './renderers/HtmlOutput';
import { ImageOutput } from './renderers/ImageOutput';
import { JsonOutput } from './renderers/JsonOutput';
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
registerOutputRenderer('text/html', HtmlOutput, { rank: 90 });
registerOutputRenderer('text/markdown', MarkdownOutput, { rank: 80 });
registerOutputRenderer('image/svg+xml', ImageOutput, { rank: 70 });
registerOutputRenderer('image/png', ImageOutput, { rank: 60 });
registerOutputRenderer('image/jpeg', ImageOutput, { rank: 55 });
registerOutputRenderer('application/json', JsonOutput, { rank: 30 });
registerOutputRenderer(PROFILE_MIME, ProfileOutput);
