/** The longest delay a timer holds (a signed 32-bit count of milliseconds); a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
