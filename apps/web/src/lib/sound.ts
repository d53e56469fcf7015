import { getVolume } from "./volume";
import { logFailure } from "./log-failure";

let ctx: AudioContext | null = null;

/** A short two-tone chime at the stored volume (spec 1-core §9), generated with the Web Audio API. */
export function playNewMessageSound(): void {
  const volume = getVolume();
  if (volume <= 0 || typeof AudioContext === "undefined") return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === "suspended") void ctx.resume().catch((err: unknown) => logFailure("resuming the audio context failed", err));
    const now = ctx.currentTime;
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + i * 0.12;
      gain.gain.setValueAtTime(0, start);
      gain.gain.linearRampToValueAtTime(0.25 * volume, start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.3);
    }
  } catch (err) {
    // sound is a courtesy: never fail because of it
    logFailure("playing the new-message sound failed", err);
  }
}
