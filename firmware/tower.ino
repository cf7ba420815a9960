// Dice-tower firmware for an Arduino Uno: Firmata 2.5 (the subset johnny-five
// needs) plus the tower sysex. See README.md for the wiring and the protocol.
#include "board_pins.h"
#include "firmata.h"
#include "pins.h"
#include "servo_timer.h"
#include "tower.h"
#include "tower_protocol.h"

static firmata::Parser parser;

static void handleChannel(const firmata::Message &m) {
  using namespace firmata;
  switch (m.command) {
    case DIGITAL_MESSAGE:
      board::writePort(m.channel, m.data[0] | (m.data[1] << 7));
      break;
    case ANALOG_MESSAGE:
      if (!tower::pinLocked(m.channel)) board::analogWrite(m.channel, m.data[0] | (m.data[1] << 7));
      break;
    case REPORT_DIGITAL:
      board::reportDigital(Serial, m.channel, m.data[0] != 0);
      break;
    case REPORT_ANALOG:
      board::reportAnalog(Serial, m.channel, m.data[0] != 0);
      break;
    case SET_PIN_MODE:
      if (!board::setMode(m.data[0], m.data[1])) sendString(Serial, "unsupported pin mode");
      break;
    case SET_DIGITAL_PIN_VALUE:
      board::writePin(m.data[0], m.data[1]);
      break;
  }
}

static void handleSysex(const firmata::Message &m, uint32_t nowMs) {
  using namespace firmata;
  const uint8_t *p = m.payload;
  switch (m.command) {
    case REPORT_FIRMWARE:
      sendFirmware(Serial, TOWER_FIRMWARE_MAJOR, TOWER_FIRMWARE_MINOR, TOWER_FIRMWARE_NAME);
      break;
    case CAPABILITY_QUERY:
      board::sendCapabilities(Serial);
      break;
    case ANALOG_MAPPING_QUERY:
      board::sendAnalogMapping(Serial);
      break;
    case PIN_STATE_QUERY:
      if (m.length >= 1) board::sendPinState(Serial, p[0]);
      break;
    case EXTENDED_ANALOG:
      if (m.length >= 2 && !tower::pinLocked(p[0])) board::analogWrite(p[0], decode7(p + 1, m.length - 1));
      break;
    case SERVO_CONFIG:
      if (m.length >= 5 && !tower::pinLocked(p[0])) board::servoConfig(p[0], decode14(p + 1), decode14(p + 3));
      break;
    case SAMPLING_INTERVAL:
      if (m.length >= 2) board::setSamplingInterval(decode14(p));
      break;
    case TOWER_SYSEX:
      tower::handleSysex(p, m.length, nowMs);
      break;
    default:
      break;  // STRING_DATA and unknown ids: nothing to do
  }
}

void setup() {
  Serial.begin(firmata::BAUD);
  servo_timer::begin();
  board::reset();
  tower::begin(Serial, millis());
  // Like StandardFirmata: announce the protocol and the firmware on start.
  firmata::sendVersion(Serial);
  firmata::sendFirmware(Serial, TOWER_FIRMWARE_MAJOR, TOWER_FIRMWARE_MINOR, TOWER_FIRMWARE_NAME);
}

void loop() {
  uint32_t now = millis();
  while (Serial.available() > 0) {
    uint8_t byte = Serial.read();
    tower::hostByte(now);
    firmata::Message m;
    if (!parser.feed(byte, m)) continue;
    switch (m.kind) {
      case firmata::Message::CHANNEL:
        handleChannel(m);
        break;
      case firmata::Message::SYSEX:
        handleSysex(m, now);
        break;
      case firmata::Message::VERSION_QUERY:
        firmata::sendVersion(Serial);
        break;
      case firmata::Message::SYSTEM_RESET_REQUEST:
        parser.reset();
        board::reset();
        tower::reset(now);
        break;
      default:
        break;
    }
  }
  board::poll(Serial, now);
  tower::poll(now);
}
