// Firmata 2.5 wire format: constants, a byte-at-a-time parser and the encoders
// this firmware needs. No Arduino state lives here: the parser hands complete
// messages to the caller, and the encoders write to any Print (the Serial port).
#ifndef DICE_TOWER_FIRMATA_H
#define DICE_TOWER_FIRMATA_H

#include <stdint.h>
#include <Print.h>

namespace firmata {

const uint8_t PROTOCOL_MAJOR = 2;
const uint8_t PROTOCOL_MINOR = 5;
const unsigned long BAUD = 57600;

// Command bytes (bit 7 set). The 0x80-0xEF ones carry a port or pin in the low nibble.
const uint8_t DIGITAL_MESSAGE = 0x90;
const uint8_t ANALOG_MESSAGE = 0xE0;
const uint8_t REPORT_ANALOG = 0xC0;
const uint8_t REPORT_DIGITAL = 0xD0;
const uint8_t START_SYSEX = 0xF0;
const uint8_t SET_PIN_MODE = 0xF4;
const uint8_t SET_DIGITAL_PIN_VALUE = 0xF5;
const uint8_t END_SYSEX = 0xF7;
const uint8_t REPORT_VERSION = 0xF9;
const uint8_t SYSTEM_RESET = 0xFF;

// Sysex ids.
const uint8_t ANALOG_MAPPING_QUERY = 0x69;
const uint8_t ANALOG_MAPPING_RESPONSE = 0x6A;
const uint8_t CAPABILITY_QUERY = 0x6B;
const uint8_t CAPABILITY_RESPONSE = 0x6C;
const uint8_t PIN_STATE_QUERY = 0x6D;
const uint8_t PIN_STATE_RESPONSE = 0x6E;
const uint8_t EXTENDED_ANALOG = 0x6F;
const uint8_t SERVO_CONFIG = 0x70;
const uint8_t STRING_DATA = 0x71;
const uint8_t REPORT_FIRMWARE = 0x79;
const uint8_t SAMPLING_INTERVAL = 0x7A;

// Pin modes (Arduino.h already defines INPUT/OUTPUT as macros, hence the prefix).
const uint8_t MODE_INPUT = 0x00;
const uint8_t MODE_OUTPUT = 0x01;
const uint8_t MODE_ANALOG = 0x02;
const uint8_t MODE_PWM = 0x03;
const uint8_t MODE_SERVO = 0x04;
const uint8_t MODE_PULLUP = 0x0B;
const uint8_t MODE_COUNT = 0x0C;  // modes are < 16, so a uint16_t mask holds a pin's set
const uint8_t NO_MODE = 0x7F;     // end of a pin's list in CAPABILITY_RESPONSE; "not analog" in the mapping

// Longest sysex payload kept (after the id). Longer messages are dropped whole.
const uint8_t SYSEX_CAPACITY = 32;

struct Message {
  enum Kind : uint8_t {
    NONE,
    CHANNEL,  // command (high nibble) + channel (low nibble) + 2 data bytes, or F4/F5
    SYSEX,    // id + payload
    VERSION_QUERY,
    SYSTEM_RESET_REQUEST,
  };
  Kind kind;
  uint8_t command;  // CHANNEL: 0x90/0xE0/0xC0/0xD0 (nibble stripped), F4 or F5; SYSEX: the id
  uint8_t channel;  // CHANNEL: the low nibble of 0x80-0xEF commands
  uint8_t data[2];  // CHANNEL: data bytes (REPORT_* use only data[0])
  const uint8_t *payload;  // SYSEX: bytes after the id (valid until the next feed())
  uint8_t length;
};

// Parses the host's byte stream. A command byte always starts a new message and
// abandons an unfinished one (MIDI rules), so the parser resynchronises by itself
// after garbage or a cable glitch; stray data bytes are ignored.
class Parser {
 public:
  Parser() : overflows_(0) { reset(); }
  void reset();
  // Feeds one byte; returns true and fills `out` when it completes a message.
  bool feed(uint8_t byte, Message &out);
  // Sysex messages dropped because they did not fit in SYSEX_CAPACITY.
  uint8_t overflows() const { return overflows_; }

 private:
  uint8_t command_;   // pending command byte, 0 when none
  uint8_t channel_;   // its low nibble (port or pin)
  uint8_t needed_;    // data bytes the pending command still needs
  uint8_t count_;     // data bytes received so far
  bool inSysex_;
  bool sysexOverflow_;
  uint8_t data_[2];
  uint8_t sysex_[SYSEX_CAPACITY + 1];  // id + payload
  uint8_t sysexLength_;
  uint8_t overflows_;
};

// Encoders. Every value sent inside a message is 7-bit; 14-bit values go LSB first.
void sendVersion(Print &out);
void sendFirmware(Print &out, uint8_t major, uint8_t minor, const char *name);
void sendString(Print &out, const char *text);
void sendAnalog(Print &out, uint8_t channel, uint16_t value);
void sendDigitalPort(Print &out, uint8_t port, uint8_t value);
void startSysex(Print &out, uint8_t id);
void send14(Print &out, uint16_t value);
void endSysex(Print &out);

// Value of `length` 7-bit bytes, LSB first (at most 4 bytes: 28 bits).
uint32_t decode7(const uint8_t *bytes, uint8_t length);
inline uint16_t decode14(const uint8_t *bytes) { return bytes[0] | (uint16_t(bytes[1]) << 7); }

}  // namespace firmata

#endif
