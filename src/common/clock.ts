import { Injectable } from '@nestjs/common';

/** The service's notion of now, injectable so that time-dependent rules have one source. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  nowIso(): string {
    return this.now().toISOString();
  }

  isoIn(milliseconds: number): string {
    return new Date(this.now().getTime() + milliseconds).toISOString();
  }
}
