// Optional sounds (off unless the person turns them on): short tones made by the Web Audio
// API, nothing to download.
let context = null;
let enabled = false;

export function setSounds(on) { enabled = on; }
export function soundsOn() { return enabled; }

const TONES = { play: [520, 0.06], draw: [330, 0.08], turn: [660, 0.12], catch: [880, 0.1], refused: [180, 0.14] };

export function sound(kind) {
  if (!enabled || !TONES[kind]) return;
  try {
    context = context || new AudioContext();
    const [pitch, length] = TONES[kind];
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = pitch;
    gain.gain.setValueAtTime(0.15, context.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + length);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start();
    oscillator.stop(context.currentTime + length);
  } catch { /* no audio on this device */ }
}
