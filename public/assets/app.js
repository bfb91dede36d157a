// The chat page: its parts each own a piece of the page and talk only through one emitter (mitt),
// never by calling each other. What they say, and who listens:
// - 'mood'      an /api/avatar-shaped body ({ avatar_shape, emotions, … }), from the status poll,
//               the event stream and a finished reply: the avatar and the bars draw it;
// - 'activity'  'idle' | 'thinking' | 'speaking', from the conversation: the avatar follows it;
// - 'service'   { ready, reachable }, from the status: the composer turns Send on or off;
// - 'started'   the service is ready after a (re)start, from the status: the conversation shows its history;
// - 'restart'   a chat found the service initializing, from the conversation: the status waits again;
// - 'send'      { text, redo? }, a message the visitor sends, from the composer (or a regenerate,
//               redo 'regenerate', from the conversation's own button): the conversation chats;
// - 'sending'   true | false, a chat is (no longer) in flight, from the conversation: the composer;
// - 'streaming' true | false, a reply streams and can be stopped, from the conversation: the composer's Stop;
// - 'stop'      the visitor asks to stop this tab's reply, from the composer (Stop) or the
//               conversation (Esc): the conversation;
// - 'restore'   { text }, a message given back to the box (nothing typed is lost), from the conversation;
// - 'notice'    { text }, a hint for the visitor (an empty Enter, editing), from the composer or the
//               conversation: the composer shows it under the box, as a status;
// - 'moved'     the mood changed (a frame of the feed, not a poll), from the event stream: the why view;
// - 'history'   the conversation changed behind the page (an import), from the page menu: the conversation
//               shows it again;
// - 'cleared'   the conversation was forgotten, from the conversation: the composer takes the focus.
import mitt from '/assets/vendor/mitt.js';
import { mountAvatar } from './avatar.js';
import { mountBars } from './bars.js';
import { mountComposer } from './composer.js';
import { mountConversation } from './conversation.js';
import { mountEventStream } from './event-stream.js';
import { mountPageMenu } from './page-menu.js';
import { mountStatus } from './status.js';
import { mountTheme } from './theme.js';

const bus = mitt();
const pollMs = Number(document.body.dataset.pollMs) || 1000;

mountAvatar(bus);
mountBars(bus);
mountComposer(bus);
mountConversation(bus);
bus.emit('activity', 'idle');
mountEventStream(bus);
mountStatus(bus, { pollMs });
mountPageMenu(bus);
mountTheme();
