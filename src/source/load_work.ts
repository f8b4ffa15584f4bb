// What one load did, counted (SPEC 17): a value of its own, with no import,
// so the public types that name it (`ContentApi.lastLoad`) pull in no
// runtime's module types.

/** What one load did, counted: the work a start or a change cost (SPEC 17). */
export interface LoadWork {
  /** Files stat'ed (by the listing, or one by one for the named paths). */
  readonly stated: number;
  /** Files whose bytes were read (derived, or checked against their checksum). */
  readonly read: number;
  /** Files derived (parsed and their fields made): on this thread or the helper's. */
  readonly derived: number;
  /**
   * Files read only to compare their checksum, and found the same: a stamp
   * too recent to trust, or a stamp that changed on the same bytes (then
   * what was derived is kept, re-dated for the new time).
   */
  readonly verified: number;
  /** Files whose fields were made again for new extras (commit dates) without a read. */
  readonly rebased: number;
  /** Files taken as they were from what a previous process kept (the state folder's cache). */
  readonly fromCache: number;
  /** Markdown parser runs (block parses, on both threads). */
  readonly parses: number;
  /** Git processes started for the load's commit dates. */
  readonly git: number;
}

/** A load's work with nothing done. */
export const NO_WORK: LoadWork = Object.freeze({
  stated: 0,
  read: 0,
  derived: 0,
  verified: 0,
  rebased: 0,
  fromCache: 0,
  parses: 0,
  git: 0,
});
