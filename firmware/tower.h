// The tower: roll cycles timed on the board, the light, the button, the tray
// sensor, the status LED and the silent-host safety. Speaks the tower sysex
// (tower_protocol.h); reports go out on the Print given to begin().
#ifndef DICE_TOWER_TOWER_H
#define DICE_TOWER_TOWER_H

#include <stdint.h>
#include <Print.h>

namespace tower {

void begin(Print &out, uint32_t nowMs);
// Power-on state (SYSTEM_RESET): any cycle stops, the servo returns to rest,
// the light goes off, settings go back to their defaults, the fault is cleared.
void reset(uint32_t nowMs);
// Any byte from the host: feeds the silent-host safety.
void hostByte(uint32_t nowMs);
// A tower sysex from the host: `data` is what follows the sysex id.
void handleSysex(const uint8_t *data, uint8_t length, uint32_t nowMs);
// True while a cycle owns the pin (host writes to it are then ignored).
bool pinLocked(uint8_t pin);
void poll(uint32_t nowMs);

}  // namespace tower

#endif
