// Written by `fastify-soap types` from OCPP_CentralSystemService_1.6.wsdl: the CentralSystemService service,
// binding {urn://Ocpp/Cs/2015/10/}CentralSystemServiceSoap (SOAP 1.2). Written again when the contract changes; not edited.
import type { ContractOperations, Infer } from 'fastify-soap'

/** The schemas each operation is read and written by. */
export const schemas = {
  "Authorize": {
    "input": {
      "type": "object",
      "properties": {
        "idTag": {
          "type": "string",
          "maxLength": 20,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "idTag"
      ],
      "xml": {
        "name": "authorizeRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "idTagInfo": {
          "type": "object",
          "properties": {
            "status": {
              "type": "string",
              "enum": [
                "Accepted",
                "Blocked",
                "Expired",
                "Invalid",
                "ConcurrentTx"
              ],
              "xml": {
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            },
            "expiryDate": {
              "type": "string",
              "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
              "xml": {
                "whiteSpace": "collapse",
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            },
            "parentIdTag": {
              "type": "string",
              "maxLength": 20,
              "xml": {
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            }
          },
          "additionalProperties": false,
          "required": [
            "status"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "idTagInfo"
      ],
      "xml": {
        "name": "authorizeResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "BootNotification": {
    "input": {
      "type": "object",
      "properties": {
        "chargePointVendor": {
          "type": "string",
          "maxLength": 20,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "chargePointModel": {
          "type": "string",
          "maxLength": 20,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "chargePointSerialNumber": {
          "type": "string",
          "maxLength": 25,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "chargeBoxSerialNumber": {
          "type": "string",
          "maxLength": 25,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "firmwareVersion": {
          "type": "string",
          "maxLength": 50,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "iccid": {
          "type": "string",
          "maxLength": 20,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "imsi": {
          "type": "string",
          "maxLength": 20,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "meterType": {
          "type": "string",
          "maxLength": 25,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "meterSerialNumber": {
          "type": "string",
          "maxLength": 25,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "chargePointVendor",
        "chargePointModel"
      ],
      "xml": {
        "name": "bootNotificationRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "status": {
          "type": "string",
          "enum": [
            "Accepted",
            "Pending",
            "Rejected"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "currentTime": {
          "type": "string",
          "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
          "xml": {
            "whiteSpace": "collapse",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "interval": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "status",
        "currentTime",
        "interval"
      ],
      "xml": {
        "name": "bootNotificationResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "DataTransfer": {
    "input": {
      "type": "object",
      "properties": {
        "vendorId": {
          "type": "string",
          "maxLength": 255,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "messageId": {
          "type": "string",
          "maxLength": 50,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "data": {
          "type": "string",
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "vendorId"
      ],
      "xml": {
        "name": "dataTransferRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "status": {
          "type": "string",
          "enum": [
            "Accepted",
            "Rejected",
            "UnknownMessageId",
            "UnknownVendorId"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "data": {
          "type": "string",
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "status"
      ],
      "xml": {
        "name": "dataTransferResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "DiagnosticsStatusNotification": {
    "input": {
      "type": "object",
      "properties": {
        "status": {
          "type": "string",
          "enum": [
            "Idle",
            "Uploaded",
            "UploadFailed",
            "Uploading"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "status"
      ],
      "xml": {
        "name": "diagnosticsStatusNotificationRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {},
      "additionalProperties": false,
      "xml": {
        "name": "diagnosticsStatusNotificationResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "FirmwareStatusNotification": {
    "input": {
      "type": "object",
      "properties": {
        "status": {
          "type": "string",
          "enum": [
            "Downloaded",
            "DownloadFailed",
            "Downloading",
            "Idle",
            "InstallationFailed",
            "Installed",
            "Installing"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "status"
      ],
      "xml": {
        "name": "firmwareStatusNotificationRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {},
      "additionalProperties": false,
      "xml": {
        "name": "firmwareStatusNotificationResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "Heartbeat": {
    "input": {
      "type": "object",
      "properties": {},
      "additionalProperties": false,
      "xml": {
        "name": "heartbeatRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "currentTime": {
          "type": "string",
          "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
          "xml": {
            "whiteSpace": "collapse",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "currentTime"
      ],
      "xml": {
        "name": "heartbeatResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "MeterValues": {
    "input": {
      "type": "object",
      "properties": {
        "connectorId": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "transactionId": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "meterValue": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "timestamp": {
                "type": "string",
                "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
                "xml": {
                  "whiteSpace": "collapse",
                  "namespace": "urn://Ocpp/Cs/2015/10/"
                }
              },
              "sampledValue": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "value": {
                      "type": "string",
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "context": {
                      "type": "string",
                      "enum": [
                        "Interruption.Begin",
                        "Interruption.End",
                        "Other",
                        "Sample.Clock",
                        "Sample.Periodic",
                        "Transaction.Begin",
                        "Transaction.End",
                        "Trigger"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "format": {
                      "type": "string",
                      "enum": [
                        "Raw",
                        "SignedData"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "measurand": {
                      "type": "string",
                      "enum": [
                        "Current.Export",
                        "Current.Import",
                        "Current.Offered",
                        "Energy.Active.Export.Register",
                        "Energy.Active.Import.Register",
                        "Energy.Reactive.Export.Register",
                        "Energy.Reactive.Import.Register",
                        "Energy.Active.Export.Interval",
                        "Energy.Active.Import.Interval",
                        "Energy.Reactive.Export.Interval",
                        "Energy.Reactive.Import.Interval",
                        "Frequency",
                        "Power.Active.Export",
                        "Power.Active.Import",
                        "Power.Factor",
                        "Power.Offered",
                        "Power.Reactive.Export",
                        "Power.Reactive.Import",
                        "RPM",
                        "SoC",
                        "Temperature",
                        "Voltage"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "phase": {
                      "type": "string",
                      "enum": [
                        "L1",
                        "L2",
                        "L3",
                        "N",
                        "L1-N",
                        "L2-N",
                        "L3-N",
                        "L1-L2",
                        "L2-L3",
                        "L3-L1"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "location": {
                      "type": "string",
                      "enum": [
                        "Body",
                        "Cable",
                        "EV",
                        "Inlet",
                        "Outlet"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "unit": {
                      "type": "string",
                      "enum": [
                        "Celsius",
                        "Fahrenheit",
                        "Wh",
                        "kWh",
                        "varh",
                        "kvarh",
                        "W",
                        "kW",
                        "VA",
                        "kVA",
                        "var",
                        "kvar",
                        "A",
                        "V",
                        "K",
                        "Percent"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    }
                  },
                  "additionalProperties": false,
                  "required": [
                    "value"
                  ]
                },
                "xml": {
                  "namespace": "urn://Ocpp/Cs/2015/10/"
                },
                "minItems": 1
              }
            },
            "additionalProperties": false,
            "required": [
              "timestamp"
            ]
          },
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "connectorId"
      ],
      "xml": {
        "name": "meterValuesRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {},
      "additionalProperties": false,
      "xml": {
        "name": "meterValuesResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "StartTransaction": {
    "input": {
      "type": "object",
      "properties": {
        "connectorId": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "idTag": {
          "type": "string",
          "maxLength": 20,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "timestamp": {
          "type": "string",
          "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
          "xml": {
            "whiteSpace": "collapse",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "meterStart": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "reservationId": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "connectorId",
        "idTag",
        "timestamp",
        "meterStart"
      ],
      "xml": {
        "name": "startTransactionRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "transactionId": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "idTagInfo": {
          "type": "object",
          "properties": {
            "status": {
              "type": "string",
              "enum": [
                "Accepted",
                "Blocked",
                "Expired",
                "Invalid",
                "ConcurrentTx"
              ],
              "xml": {
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            },
            "expiryDate": {
              "type": "string",
              "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
              "xml": {
                "whiteSpace": "collapse",
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            },
            "parentIdTag": {
              "type": "string",
              "maxLength": 20,
              "xml": {
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            }
          },
          "additionalProperties": false,
          "required": [
            "status"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "transactionId",
        "idTagInfo"
      ],
      "xml": {
        "name": "startTransactionResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "StatusNotification": {
    "input": {
      "type": "object",
      "properties": {
        "connectorId": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "status": {
          "type": "string",
          "enum": [
            "Available",
            "Preparing",
            "Charging",
            "SuspendedEV",
            "SuspendedEVSE",
            "Finishing",
            "Reserved",
            "Faulted",
            "Unavailable"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "errorCode": {
          "type": "string",
          "enum": [
            "ConnectorLockFailure",
            "EVCommunicationError",
            "GroundFailure",
            "HighTemperature",
            "InternalError",
            "LocalListConflict",
            "NoError",
            "OtherError",
            "OverCurrentFailure",
            "OverVoltage",
            "PowerMeterFailure",
            "PowerSwitchFailure",
            "ReaderFailure",
            "ResetFailure",
            "UnderVoltage",
            "WeakSignal"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "info": {
          "type": "string",
          "maxLength": 50,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "timestamp": {
          "type": "string",
          "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
          "xml": {
            "whiteSpace": "collapse",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "vendorId": {
          "type": "string",
          "maxLength": 255,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "vendorErrorCode": {
          "type": "string",
          "maxLength": 50,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "connectorId",
        "status",
        "errorCode"
      ],
      "xml": {
        "name": "statusNotificationRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {},
      "additionalProperties": false,
      "xml": {
        "name": "statusNotificationResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  },
  "StopTransaction": {
    "input": {
      "type": "object",
      "properties": {
        "transactionId": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "idTag": {
          "type": "string",
          "maxLength": 20,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "timestamp": {
          "type": "string",
          "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
          "xml": {
            "whiteSpace": "collapse",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "meterStop": {
          "type": "integer",
          "minimum": -2147483648,
          "maximum": 2147483647,
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "reason": {
          "type": "string",
          "enum": [
            "EmergencyStop",
            "EVDisconnected",
            "HardReset",
            "Local",
            "Other",
            "PowerLoss",
            "Reboot",
            "Remote",
            "SoftReset",
            "UnlockCommand",
            "DeAuthorized"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        },
        "transactionData": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "timestamp": {
                "type": "string",
                "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
                "xml": {
                  "whiteSpace": "collapse",
                  "namespace": "urn://Ocpp/Cs/2015/10/"
                }
              },
              "sampledValue": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "value": {
                      "type": "string",
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "context": {
                      "type": "string",
                      "enum": [
                        "Interruption.Begin",
                        "Interruption.End",
                        "Other",
                        "Sample.Clock",
                        "Sample.Periodic",
                        "Transaction.Begin",
                        "Transaction.End",
                        "Trigger"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "format": {
                      "type": "string",
                      "enum": [
                        "Raw",
                        "SignedData"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "measurand": {
                      "type": "string",
                      "enum": [
                        "Current.Export",
                        "Current.Import",
                        "Current.Offered",
                        "Energy.Active.Export.Register",
                        "Energy.Active.Import.Register",
                        "Energy.Reactive.Export.Register",
                        "Energy.Reactive.Import.Register",
                        "Energy.Active.Export.Interval",
                        "Energy.Active.Import.Interval",
                        "Energy.Reactive.Export.Interval",
                        "Energy.Reactive.Import.Interval",
                        "Frequency",
                        "Power.Active.Export",
                        "Power.Active.Import",
                        "Power.Factor",
                        "Power.Offered",
                        "Power.Reactive.Export",
                        "Power.Reactive.Import",
                        "RPM",
                        "SoC",
                        "Temperature",
                        "Voltage"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "phase": {
                      "type": "string",
                      "enum": [
                        "L1",
                        "L2",
                        "L3",
                        "N",
                        "L1-N",
                        "L2-N",
                        "L3-N",
                        "L1-L2",
                        "L2-L3",
                        "L3-L1"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "location": {
                      "type": "string",
                      "enum": [
                        "Body",
                        "Cable",
                        "EV",
                        "Inlet",
                        "Outlet"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    },
                    "unit": {
                      "type": "string",
                      "enum": [
                        "Celsius",
                        "Fahrenheit",
                        "Wh",
                        "kWh",
                        "varh",
                        "kvarh",
                        "W",
                        "kW",
                        "VA",
                        "kVA",
                        "var",
                        "kvar",
                        "A",
                        "V",
                        "K",
                        "Percent"
                      ],
                      "xml": {
                        "namespace": "urn://Ocpp/Cs/2015/10/"
                      }
                    }
                  },
                  "additionalProperties": false,
                  "required": [
                    "value"
                  ]
                },
                "xml": {
                  "namespace": "urn://Ocpp/Cs/2015/10/"
                },
                "minItems": 1
              }
            },
            "additionalProperties": false,
            "required": [
              "timestamp"
            ]
          },
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "required": [
        "transactionId",
        "timestamp",
        "meterStop"
      ],
      "xml": {
        "name": "stopTransactionRequest",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "output": {
      "type": "object",
      "properties": {
        "idTagInfo": {
          "type": "object",
          "properties": {
            "status": {
              "type": "string",
              "enum": [
                "Accepted",
                "Blocked",
                "Expired",
                "Invalid",
                "ConcurrentTx"
              ],
              "xml": {
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            },
            "expiryDate": {
              "type": "string",
              "pattern": "^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?$",
              "xml": {
                "whiteSpace": "collapse",
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            },
            "parentIdTag": {
              "type": "string",
              "maxLength": 20,
              "xml": {
                "namespace": "urn://Ocpp/Cs/2015/10/"
              }
            }
          },
          "additionalProperties": false,
          "required": [
            "status"
          ],
          "xml": {
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false,
      "xml": {
        "name": "stopTransactionResponse",
        "namespace": "urn://Ocpp/Cs/2015/10/"
      }
    },
    "headers": {
      "type": "object",
      "properties": {
        "chargeBoxIdentity": {
          "type": "string",
          "xml": {
            "name": "chargeBoxIdentity",
            "namespace": "urn://Ocpp/Cs/2015/10/"
          }
        }
      },
      "additionalProperties": false
    }
  }
} as const

/** The handlers of `app.soap.contract<Operations>({ operations })`. */
export type Operations = ContractOperations<typeof schemas>

export type AuthorizeInput = Infer<typeof schemas["Authorize"]['input']>
export type AuthorizeOutput = Infer<typeof schemas["Authorize"]['output']>
export type AuthorizeHeaders = Infer<typeof schemas["Authorize"]['headers']>
export type BootNotificationInput = Infer<typeof schemas["BootNotification"]['input']>
export type BootNotificationOutput = Infer<typeof schemas["BootNotification"]['output']>
export type BootNotificationHeaders = Infer<typeof schemas["BootNotification"]['headers']>
export type DataTransferInput = Infer<typeof schemas["DataTransfer"]['input']>
export type DataTransferOutput = Infer<typeof schemas["DataTransfer"]['output']>
export type DataTransferHeaders = Infer<typeof schemas["DataTransfer"]['headers']>
export type DiagnosticsStatusNotificationInput = Infer<typeof schemas["DiagnosticsStatusNotification"]['input']>
export type DiagnosticsStatusNotificationOutput = Infer<typeof schemas["DiagnosticsStatusNotification"]['output']>
export type DiagnosticsStatusNotificationHeaders = Infer<typeof schemas["DiagnosticsStatusNotification"]['headers']>
export type FirmwareStatusNotificationInput = Infer<typeof schemas["FirmwareStatusNotification"]['input']>
export type FirmwareStatusNotificationOutput = Infer<typeof schemas["FirmwareStatusNotification"]['output']>
export type FirmwareStatusNotificationHeaders = Infer<typeof schemas["FirmwareStatusNotification"]['headers']>
export type HeartbeatInput = Infer<typeof schemas["Heartbeat"]['input']>
export type HeartbeatOutput = Infer<typeof schemas["Heartbeat"]['output']>
export type HeartbeatHeaders = Infer<typeof schemas["Heartbeat"]['headers']>
export type MeterValuesInput = Infer<typeof schemas["MeterValues"]['input']>
export type MeterValuesOutput = Infer<typeof schemas["MeterValues"]['output']>
export type MeterValuesHeaders = Infer<typeof schemas["MeterValues"]['headers']>
export type StartTransactionInput = Infer<typeof schemas["StartTransaction"]['input']>
export type StartTransactionOutput = Infer<typeof schemas["StartTransaction"]['output']>
export type StartTransactionHeaders = Infer<typeof schemas["StartTransaction"]['headers']>
export type StatusNotificationInput = Infer<typeof schemas["StatusNotification"]['input']>
export type StatusNotificationOutput = Infer<typeof schemas["StatusNotification"]['output']>
export type StatusNotificationHeaders = Infer<typeof schemas["StatusNotification"]['headers']>
export type StopTransactionInput = Infer<typeof schemas["StopTransaction"]['input']>
export type StopTransactionOutput = Infer<typeof schemas["StopTransaction"]['output']>
export type StopTransactionHeaders = Infer<typeof schemas["StopTransaction"]['headers']>
