import { releaseMessage } from './psas.service';

describe('releaseMessage', () => {
  it.each([
    [
      { releaseId: '1', tagName: 'v26.47.0', name: 'Winter update' },
      'Version v26.47.0 has been released: Winter update. Refresh the page to get it.',
    ],
    [
      { releaseId: '1', tagName: 'v26.47.0', name: 'v26.47.0' },
      'Version v26.47.0 has been released. Refresh the page to get it.',
    ],
    [
      { releaseId: '1', tagName: 'v26.47.0', name: null },
      'Version v26.47.0 has been released. Refresh the page to get it.',
    ],
    [
      { releaseId: '1', tagName: null, name: 'Winter update' },
      'Version Winter update has been released. Refresh the page to get it.',
    ],
    [
      { releaseId: '77', tagName: null, name: null },
      'Version 77 has been released. Refresh the page to get it.',
    ],
  ])('%j', (release, message) => {
    expect(releaseMessage(release)).toBe(message);
  });
});
