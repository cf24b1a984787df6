// What the test removes at the end, and the check that nothing of its project is left.
import { must, run } from './run.mjs';

/** Image ids the classic builder made for the API (not the FROM images): removed with the image at the end. */
export function buildLayers(output) {
  const ids = [];
  let afterFrom = false;
  for (const line of output.split('\n')) {
    if (/^Step \d+\/\d+ : FROM /.test(line)) afterFrom = true;
    const id = line.match(/^ ---> ([0-9a-f]{12})\s*$/)?.[1];
    if (id) {
      if (!afterFrom) ids.push(id);
      afterFrom = false;
    }
  }
  return ids;
}

/** Removes the API image, then each of its build layers that nothing else uses (no tag, no child image). */
export async function removeApiImage(apiImage, layers) {
  await run('docker', ['rmi', apiImage]);
  for (const id of [...layers].reverse()) {
    const tags = await run('docker', ['image', 'inspect', '--format', '{{len .RepoTags}}', id]);
    if (tags.code === 0 && tags.stdout.trim() === '0') await run('docker', ['rmi', id]);
  }
}

/** What is left of the project (containers, volumes, network), the API image or its build layers: [] when nothing. */
export async function leftovers(project, apiImage, layers) {
  const label = `label=com.docker.compose.project=${project}`;
  const left = [];
  for (const kind of [
    ['ps', '-aq'],
    ['volume', 'ls', '-q'],
    ['network', 'ls', '-q'],
  ]) {
    const out = (await must('docker', [...kind, '--filter', label])).stdout.trim();
    if (out) left.push(`${kind[0]}: ${out.split('\n').join(' ')}`);
  }
  if ((await run('docker', ['image', 'inspect', apiImage])).code === 0) left.push(`image ${apiImage}`);
  // A build layer still there is the parent of another image (a cache someone kept); none may be dangling.
  const dangling = (await must('docker', ['images', '-q', '--filter', 'dangling=true'])).stdout.split('\n');
  const strays = layers.filter((id) => dangling.includes(id));
  if (strays.length) left.push(`build layers ${strays.join(' ')}`);
  return left;
}
