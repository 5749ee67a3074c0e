// Which shortcut keys act while an overlay is open. An overlay owns the keyboard: behind the
// help overlay, the symbol picker, settings, the bot panel or the TP/SL dialog, "3" must not
// switch the chart and "b" must not arm a side in a form the trader cannot see. Only Esc
// (closes the overlay, handled before this check) and "?" (toggles help) get through.

export function overlayAllows(overlay: string | null, key: string): boolean {
  return overlay === null || key === '?' || key === 'Escape';
}
