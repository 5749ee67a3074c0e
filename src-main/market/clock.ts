// The market clock lives in core (src-main/core/clock.ts), below the services and the store;
// this path stays for the simulator's modules and the exchange, which import it from here.
export * from '../core/clock.ts';
