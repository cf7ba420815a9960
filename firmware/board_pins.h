// The board's pins as Firmata sees them: which modes each pin supports, the mode
// and state of each, digital-port and analog-channel reporting. The tower's own
// pins are listed with the one mode they have (see pins.h); the serial pins and
// the status LED are listed with none, so a host cannot take them over.
#ifndef DICE_TOWER_BOARD_PINS_H
#define DICE_TOWER_BOARD_PINS_H

#include <stdint.h>
#include <Print.h>

namespace board {

const uint8_t TOTAL_PORTS = 3;  // Firmata ports of 8 pins: 0-7, 8-15, 16-23
const uint16_t DEFAULT_SAMPLING_MS = 19;

// Power-on state: tower pins in their modes, free digital pins INPUT, A0-A5
// ANALOG, no reporting, sampling interval 19 ms.
void reset();

uint16_t modeMask(uint8_t pin);  // bit n set = Firmata mode n supported
uint8_t mode(uint8_t pin);       // firmata::NO_MODE for pins without modes
uint16_t state(uint8_t pin);     // last value written (output modes) or pull-up on (inputs)

// Each returns false, changing nothing, for a pin or mode the board does not support.
bool setMode(uint8_t pin, uint8_t mode);
bool servoConfig(uint8_t pin, uint16_t minUs, uint16_t maxUs);  // also sets SERVO mode
bool analogWrite(uint8_t pin, uint32_t value);  // PWM (0-255) or servo (degrees or us) pins
void writePort(uint8_t port, uint8_t value);    // OUTPUT pins of the port only
void writePin(uint8_t pin, uint8_t value);      // OUTPUT pins only

// Enabling reporting sends the current value at once (Firmata 2.4+).
void reportDigital(Print &out, uint8_t port, bool enable);
void reportAnalog(Print &out, uint8_t channel, bool enable);
void setSamplingInterval(uint16_t ms);

// Sends digital ports whose inputs changed, and analog channels every interval.
void poll(Print &out, uint32_t nowMs);

void sendCapabilities(Print &out);
void sendAnalogMapping(Print &out);
void sendPinState(Print &out, uint8_t pin);

}  // namespace board

#endif
