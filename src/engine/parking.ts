/**
 * Parked memory (memory.ts, layer 4): what a step sweep would once have spilled at once is kept
 * on its device, oldest first, and spilled only when the device is short of memory. Most of it is
 * garbage the program dropped (a model's output, a loss); the garbage collector usually takes it
 * before memory runs short, and it is then freed without ever being read back.
 *
 * One lot per device. The lot only orders and counts; storage.ts decides what moves.
 */
export interface Parkable {
  readonly bytes: number;
}

export class ParkingLot<T extends Parkable> {
  /** A Set keeps insertion order: the first entries are the oldest. */
  private readonly items = new Set<T>();
  /** Bytes of everything parked here. */
  bytes = 0;

  has(item: T): boolean {
    return this.items.has(item);
  }

  add(item: T): void {
    if (this.items.has(item)) return;
    this.items.add(item);
    this.bytes += item.bytes;
  }

  remove(item: T): void {
    if (this.items.delete(item)) this.bytes -= item.bytes;
  }

  /** Removes and returns the oldest entries holding at least `bytes` (all of them if fewer). */
  takeOldest(bytes: number): T[] {
    const taken: T[] = [];
    let freed = 0;
    for (const item of this.items) {
      if (freed >= bytes) break;
      taken.push(item);
      freed += item.bytes;
    }
    for (const item of taken) this.remove(item);
    return taken;
  }
}
