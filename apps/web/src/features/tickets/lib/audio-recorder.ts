import { LIMITS } from "@atende/shared";
import { logFailure } from "../../../lib/log-failure";

export interface Recording {
  /** Stops and returns the recording as MP3 (128 kbps). */
  stop(): Promise<Blob>;
  cancel(): void;
}

/** Starts recording from the microphone (MediaRecorder). */
export async function startRecording(): Promise<Recording> {
  // the MP3 encoder (~165 KB) loads while the agent records, not with the workspace
  loadEncoder().catch((err: unknown) => logFailure("could not load the MP3 encoder", err));
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const recorder = new MediaRecorder(stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  };
  recorder.start();
  const release = () => stream.getTracks().forEach((t) => t.stop());
  return {
    stop: () =>
      new Promise<Blob>((resolve, reject) => {
        recorder.onstop = () => {
          release();
          encodeMp3(new Blob(chunks, { type: recorder.mimeType })).then(resolve, reject);
        };
        recorder.stop();
      }),
    cancel: () => {
      recorder.onstop = release;
      if (recorder.state !== "inactive") recorder.stop();
      else release();
    },
  };
}

let encoderModule: Promise<typeof import("@breezystack/lamejs")> | null = null;
const loadEncoder = () => (encoderModule ??= import("@breezystack/lamejs"));

/** Decodes any browser recording and re-encodes it as mono MP3 at 128 kbps. */
export async function encodeMp3(input: Blob): Promise<Blob> {
  const ctx = new AudioContext();
  try {
    const audio = await ctx.decodeAudioData(await input.arrayBuffer());
    const samples = audio.getChannelData(0);
    const pcm = new Int16Array(samples.length);
    for (let i = 0; i < samples.length; i++) {
      const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
      pcm[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
    }
    const { Mp3Encoder } = await loadEncoder();
    const encoder = new Mp3Encoder(1, audio.sampleRate, LIMITS.audioBitrateKbps);
    const parts: Uint8Array[] = [];
    const block = 1152;
    for (let i = 0; i < pcm.length; i += block) {
      const out = encoder.encodeBuffer(pcm.subarray(i, i + block));
      if (out.length) parts.push(new Uint8Array(out));
    }
    const end = encoder.flush();
    if (end.length) parts.push(new Uint8Array(end));
    return new Blob(parts as BlobPart[], { type: "audio/mpeg" });
  } finally {
    void ctx.close();
  }
}
