/**
 * Stand-ins for xterm.js and its fit addon (jsdom cannot lay a terminal out). Tests mock the packages with them:
 *   vi.mock('@xterm/xterm', async () => ({ Terminal: (await import('../../test/fakeXterm')).FakeTerminal }));
 */

type Listener<T> = (value: T) => void;

function emitter<T>() {
  const listeners: Listener<T>[] = [];
  return {
    listen(l: Listener<T>) {
      listeners.push(l);
      return {
        dispose: () => {
          const i = listeners.indexOf(l);
          if (i >= 0) listeners.splice(i, 1);
        },
      };
    },
    emit(value: T) {
      for (const l of [...listeners]) l(value);
    },
  };
}

export class FakeTerminal {
  static instances: FakeTerminal[] = [];

  cols = 100;
  rows = 30;
  element: HTMLElement | null = null;
  written: (string | Uint8Array)[] = [];
  resets = 0;
  selectionText = '';
  pasted: string[] = [];
  focused = 0;
  disposed = false;
  keyHandler: ((e: KeyboardEvent) => boolean) | null = null;
  private readonly data = emitter<string>();
  private readonly binaryData = emitter<string>();
  private readonly resized = emitter<{ cols: number; rows: number }>();

  constructor(readonly options: unknown) {
    FakeTerminal.instances.push(this);
  }

  loadAddon(addon: { activate(term: FakeTerminal): void }): void {
    addon.activate(this);
  }

  open(element: HTMLElement): void {
    this.element = element;
  }

  write(data: string | Uint8Array): void {
    this.written.push(data);
  }

  reset(): void {
    this.resets += 1;
    this.written = [];
  }

  getSelection(): string {
    return this.selectionText;
  }

  paste(text: string): void {
    this.pasted.push(text);
    this.data.emit(text);
  }

  focus(): void {
    this.focused += 1;
  }

  attachCustomKeyEventHandler(handler: (e: KeyboardEvent) => boolean): void {
    this.keyHandler = handler;
  }

  onData(l: Listener<string>) {
    return this.data.listen(l);
  }

  onBinary(l: Listener<string>) {
    return this.binaryData.listen(l);
  }

  onResize(l: Listener<{ cols: number; rows: number }>) {
    return this.resized.listen(l);
  }

  dispose(): void {
    this.disposed = true;
  }

  // ---- for tests ----

  /** The user types. */
  type(text: string): void {
    this.data.emit(text);
  }

  /** The terminal takes a new size (as fitting it does). */
  resize(cols: number, rows: number): void {
    if (cols === this.cols && rows === this.rows) return;
    this.cols = cols;
    this.rows = rows;
    this.resized.emit({ cols, rows });
  }

  /** Everything written, decoded. */
  get output(): string {
    const decoder = new TextDecoder();
    return this.written.map((w) => (typeof w === 'string' ? w : decoder.decode(w))).join('');
  }

  static latest(): FakeTerminal {
    const last = FakeTerminal.instances.at(-1);
    if (!last) throw new Error('no terminal created');
    return last;
  }
}

export class FakeFitAddon {
  /** The size the next fit gives (none: it keeps the size). */
  static next: { cols: number; rows: number } | null = null;
  fits = 0;
  private term: FakeTerminal | null = null;

  activate(term: FakeTerminal): void {
    this.term = term;
  }

  fit(): void {
    this.fits += 1;
    if (FakeFitAddon.next && this.term) this.term.resize(FakeFitAddon.next.cols, FakeFitAddon.next.rows);
  }

  dispose(): void {}
}
