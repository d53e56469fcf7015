/** One paced send: when it started, and when its answer came (null while in flight). */
export interface PacedSend {
  start: number;
  answered: number | null;
  settled: Promise<void>;
  /** Marks the answer's time (once). Every send is settled, sent or not, or the pacing would wait on it forever. */
  settle: () => void;
}

function pacedSend(start: number, onAnswer: (roundTrip: number) => void): PacedSend {
  let resolve!: () => void;
  const send: PacedSend = {
    start,
    answered: null,
    settled: new Promise<void>((r) => (resolve = r)),
    settle: () => {
      if (send.answered === null) {
        send.answered = Date.now();
        onAnswer(send.answered - start);
      }
      resolve();
    },
  };
  return send;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** How far ahead of the catch-up pace's virtual clock a send may go: about a timer's lateness. */
export const CATCH_UP_TOLERANCE_MS = 2;

export interface SendPacerOptions {
  /** Sends per second, never exceeded in any one-second window where the receiver counts them. */
  rate: number;
  /**
   * Catch-up pace when behind the schedule, as a multiple of the rate (SMS: 2, never a burst); unset,
   * a late slot may go at once, bounded only by the window rule. Kept by a virtual clock (GCRA) with a
   * tolerance of CATCH_UP_TOLERANCE_MS, not from the previous send's actual start: a timer wakes a
   * millisecond or more late, so spacing each send from the last one's start held the pace to about
   * one send per timer tick (600/s at 1,000/s configured).
   */
  catchUp?: number;
  /** Called with each send's start (the bench's and the tests' seam). */
  observe?: (at: number) => void;
}

/**
 * The exact-rate pacing of the SMS and e-mail campaign engines (docs/architecture.md "Dispatch: exact
 * rate"). Send i starts:
 * - no earlier than t0 + i/rate (the schedule; idle or over a second behind, it restarts now);
 * - no earlier than the **answer** to the send `rate` places before it + 1 s + 1 ms, less the shortest
 *   round trip seen so far. The receiver (SMTP relay, SMS provider, Meta) sees a request after it
 *   starts and before it answers, so counting the window from the answer puts at most `rate` arrivals
 *   in any one second at the receiver, whatever delays a request on its way (a new connection's
 *   handshake, a busy event loop on either side). Counting from the start, as before, let a request
 *   delayed on its way land in the same second as later ones. The shortest round trip is time every
 *   request spends on its way back and forth (the distance to the provider), so it is taken off: the
 *   window then waits only for a round trip's **variation**, not for the whole round trip each second
 *   (Meta 200 ms away would otherwise cost a sixth of the rate);
 * - only when `gate` resolves (the e-mail driver's free pooled connection), so a request goes out when
 *   its slot comes instead of queueing behind others and leaving in a burst.
 */
export class SendPacer {
  private readonly sends: PacedSend[] = [];
  private nextSlot = 0;
  /** The shortest start-to-answer time of this pacer's sends (never more than any anchor's own). */
  private shortestRoundTrip = Infinity;
  /** The catch-up pace's virtual clock: when the next send would be due at exactly catchUp × rate. */
  private catchUpDue = 0;

  constructor(private readonly o: SendPacerOptions) {}

  /** After an idle pause: the schedule starts again at the next send (the window rule still holds). */
  restart(): void {
    this.nextSlot = 0;
  }

  async slot(gate?: () => Promise<void>): Promise<PacedSend> {
    const { rate } = this.o;
    const interval = 1000 / rate;
    for (;;) {
      if (gate) await gate();
      const anchor = this.sends.length >= rate ? this.sends[this.sends.length - rate]! : null;
      if (anchor && anchor.answered === null) {
        await anchor.settled;
        continue;
      }
      const now = Date.now();
      if (this.nextSlot < now - 1000) this.nextSlot = now;
      let at = Math.max(this.nextSlot, now);
      if (this.o.catchUp) at = Math.max(at, this.catchUpDue - CATCH_UP_TOLERANCE_MS);
      if (anchor) at = Math.max(at, anchor.answered! + 1000 + 1 - Math.min(this.shortestRoundTrip, anchor.answered! - anchor.start));
      if (at <= now) break;
      await sleep(Math.max(1, at - now));
    }
    const send = pacedSend(Date.now(), (roundTrip) => {
      if (roundTrip < this.shortestRoundTrip) this.shortestRoundTrip = roundTrip;
    });
    this.o.observe?.(send.start);
    this.sends.push(send);
    if (this.o.catchUp) this.catchUpDue = Math.max(this.catchUpDue, send.start) + interval / this.o.catchUp;
    if (this.sends.length > rate * 2) this.sends.splice(0, this.sends.length - rate);
    // the next slot follows the schedule, not this send's (possibly late) start: a send delayed by a busy
    // event loop is caught up by the next ones, within the rules above
    this.nextSlot += interval;
    return send;
  }
}
