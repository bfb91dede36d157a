// The event stream: the page's one lasting stream, the visitor's feed (GET /api/chat/feed), opened
// again after any drop. Its mood frames (GET /api/events' body, at once and at each change) are said
// as 'mood'; the rest as 'feed' { event, data } for the conversation: the turns running when it
// (re)connects ('running'), and what the visitor's tabs do ('turn', 'frame', 'ended', 'cleared').
// One stream rather than one per kind: a browser opens at most six to a server, for all its tabs.
// The status's 1 s poll stays: the contract, and the fallback where this stream is cut.
import { followFeed } from './turns.js';

export function mountEventStream(bus) {
  void followFeed((event, data) => {
    if (event === 'mood') {
      if (data.emotions) bus.emit('mood', data);
      bus.emit('moved');
    } else bus.emit('feed', { event, data });
  });
}
