/**
 * Text collected from a stream with a ceiling: the first and the last characters are kept and the
 * middle is dropped, so a command that prints without end cannot exhaust memory, and both how it
 * started and how it ended stay visible.
 */
export class CappedText {
  private head = '';
  private tail = '';
  private cut = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(maxChars: number) {
    this.headMax = Math.ceil(maxChars / 2);
    this.tailMax = Math.floor(maxChars / 2);
  }

  push(chunk: string): void {
    if (chunk === '') return;
    if (this.cut === 0 && this.tail === '' && this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (chunk === '') return;
    }
    this.tail += chunk;
    // trimmed in batches rather than on every chunk, so a chatty stream is not copied per line
    if (this.tail.length > 2 * this.tailMax) this.trimTail();
  }

  get truncated(): boolean {
    return this.cut > 0 || this.tail.length > this.tailMax;
  }

  text(): string {
    this.trimTail();
    return this.cut > 0 ? `${this.head}\n[... ${this.cut} characters cut ...]\n${this.tail}` : this.head + this.tail;
  }

  private trimTail(): void {
    const over = this.tail.length - this.tailMax;
    if (over <= 0) return;
    this.cut += over;
    this.tail = this.tail.slice(over);
  }
}
